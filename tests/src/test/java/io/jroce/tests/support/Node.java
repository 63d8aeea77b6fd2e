package io.jroce.tests.support;

import io.jroce.rnic.SoftRnic;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.Gid;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ResourceClosedException;
import io.jroce.verbs.TransportException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.TreeMap;

/**
 * One open device on a loopback address and a free UDP port, with a protection domain. Resources
 * created through it are tracked and closed in reverse order of creation by {@link #close()}, then
 * the PD and the device.
 */
public final class Node implements AutoCloseable {
    private static final int OPEN_ATTEMPTS = 8;

    private final RdmaDevice device;
    private final String address;
    private final int port;
    private final Gid gid;
    private final int gidIndex;
    private final ProtectionDomain pd;
    private final Deque<AutoCloseable> owned = new ArrayDeque<>();

    private Node(RdmaDevice device, String address, int port) {
        this.device = device;
        this.address = address;
        this.port = port;
        this.gid = Gid.parse(address);
        this.gidIndex = device.gids().indexOf(gid);
        if (gidIndex < 0) {
            device.close();
            throw new AssertionError("GID table " + device.gids() + " of " + device.name()
                + " lacks the GID of its address " + address + " (" + gid + ")");
        }
        this.pd = device.allocPd();
    }

    /** Opens a device named {@code name} on {@code address} with a free UDP port. */
    public static Node open(String name, String address, Mtu activeMtu) {
        Opened o = openDevice(name, address, activeMtu, null);
        return new Node(o.device(), address, o.port());
    }

    /** A device and the UDP port it was opened on. */
    public record Opened(RdmaDevice device, int port) {
    }

    /**
     * Opens a device on {@code address} (and {@code extraAddress} when not null) with a UDP port
     * that was free a moment ago, retried with another port if someone took it in between.
     *
     * @param name      null for the builder's default
     * @param activeMtu null for the builder's default
     */
    public static Opened openDevice(String name, String address, Mtu activeMtu, String extraAddress) {
        TransportException last = null;
        for (int attempt = 0; attempt < OPEN_ATTEMPTS; attempt++) {
            int port = freeUdpPort(address);
            SoftRnic.Builder b = SoftRnic.builder().address(address).udpPort(port);
            if (name != null) {
                b.name(name);
            }
            if (extraAddress != null) {
                b.address(extraAddress);
            }
            if (activeMtu != null) {
                b.activeMtu(activeMtu);
            }
            try {
                return new Opened(b.open(), port);
            } catch (TransportException e) {
                last = e;
            }
        }
        throw new AssertionError("could not open a device on " + address + " in " + OPEN_ATTEMPTS + " tries", last);
    }

    /** A UDP port on {@code address} that nobody had bound when we asked. */
    public static int freeUdpPort(String address) {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(address), 0))) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free UDP port on " + address, e);
        }
    }

    public RdmaDevice device() {
        return device;
    }

    public ProtectionDomain pd() {
        return pd;
    }

    public String address() {
        return address;
    }

    public int port() {
        return port;
    }

    public Gid gid() {
        return gid;
    }

    public int gidIndex() {
        return gidIndex;
    }

    /** The address vector a QP of this node uses to reach {@code peer}. */
    public AddressVector addressTo(Node peer) {
        return new AddressVector().destGid(peer.gid).sgidIndex(gidIndex).udpPort(peer.port).hopLimit(64);
    }

    /** Creates a CQ that {@link #close()} destroys. */
    public CompletionQueue createCq(int entries) {
        return own(device.createCq(entries));
    }

    /** Allocates registered memory that {@link #close()} deregisters. */
    public MemoryRegion allocateMemory(int length, int access) {
        return own(pd.allocateMemory(length, access));
    }

    /** Makes {@link #close()} close {@code r} (before anything created earlier). */
    public <T extends AutoCloseable> T own(T r) {
        owned.push(r);
        return r;
    }

    public long counter(String name) {
        Long v = device.counters().get(name);
        if (v == null) {
            throw new AssertionError("device " + device.name() + " has no counter " + name + ": " + device.counters().keySet());
        }
        return v;
    }

    public Map<String, Long> counters() {
        return device.counters();
    }

    /** The non-zero counters, for failure messages. */
    public String describeCounters() {
        Map<String, Long> nz = new TreeMap<>();
        device.counters().forEach((k, v) -> {
            if (v != 0) {
                nz.put(k, v);
            }
        });
        return device.name() + "@" + address + ":" + port + " " + nz;
    }

    @Override
    public void close() {
        RuntimeException first = null;
        while (!owned.isEmpty()) {
            try {
                closeOne(owned.pop());
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        try {
            pd.close();
            device.close();
        } catch (RuntimeException e) {
            first = first == null ? e : first;
        }
        if (first != null) {
            throw first;
        }
    }

    private static void closeOne(AutoCloseable r) {
        try {
            r.close();
        } catch (ResourceClosedException alreadyClosed) {
            // a test closed it itself
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Closes QPs that a test created and may already have closed. */
    public static void closeQuietly(QueuePair qp) {
        if (qp != null) {
            closeOne(qp);
        }
    }

    @Override
    public String toString() {
        return device.name() + "@" + address + ":" + port;
    }
}
