package io.jroce.rnic.cm.api;

import java.net.InetAddress;
import java.net.Inet4Address;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.jroce.rnic.core.SoftDevice;
import io.jroce.verbs.Gid;

/**
 * The JVM-wide registry of open jroce devices on UDP, where address resolution looks for the device
 * that owns an address (the kernel's netdev lookup in {@code cma_acquire_dev}). A device registers
 * when it opens and leaves when it closes.
 */
public final class CmDevices {
    private static final List<CmDevice> DEVICES = new CopyOnWriteArrayList<>();
    /** The IDs listening on a wildcard address ({@code listen_any_list}); guarded by the class. */
    private static final List<SoftCmId> WILDCARD_LISTENERS = new ArrayList<>();

    private CmDevices() {
    }

    /**
     * Registers an open device whose peers listen on UDP {@code roceUdpPort}; it leaves the registry when it
     * closes. The wildcard listeners listen on it too before this returns, as {@code cma_add_one} adds
     * them to a new device.
     *
     * @param device the device, just opened
     * @param roceUdpPort the UDP port its peers' RoCE traffic and CM messages go to
     */
    public static void register(SoftDevice device, int roceUdpPort) {
        CmDevice d = new CmDevice(device, roceUdpPort);
        List<SoftCmId> listening;
        synchronized (CmDevices.class) {
            DEVICES.add(d);
            listening = List.copyOf(WILDCARD_LISTENERS);
        }
        device.onClose(() -> {
            DEVICES.remove(d);
            CmPorts.releaseDevice(d);
            for (SoftCmId w : wildcardListeners()) {
                w.deviceClosed(d);
            }
        });
        for (SoftCmId w : listening) {
            w.listenOn(d);
        }
    }

    /**
     * An application thread is about to wait for CM events: every device in the invoker progress
     * mode hands itself to its fallback thread, which answers the MADs that the event waits for.
     */
    static void handOverAll() {
        for (CmDevice d : DEVICES) {
            d.device.handOver();
        }
    }

    /**
     * {@code cma_listen_on_all}: {@code listener} listens on every device that registers from now on;
     * returns those registered already, for it to listen on.
     */
    static synchronized List<CmDevice> listenOnAll(SoftCmId listener) {
        WILDCARD_LISTENERS.add(listener);
        return List.copyOf(DEVICES);
    }

    /** {@code listener} stops listening: devices that register from now on do not hear of it. */
    static synchronized void stopListeningOnAll(SoftCmId listener) {
        WILDCARD_LISTENERS.remove(listener);
    }

    private static synchronized List<SoftCmId> wildcardListeners() {
        return List.copyOf(WILDCARD_LISTENERS);
    }

    /** The device that owns {@code address}, or null. */
    static CmDevice owning(InetAddress address) {
        Gid gid = Gid.of(address);
        for (CmDevice d : DEVICES) {
            if (d.gidIndex(gid) >= 0) {
                return d;
            }
        }
        return null;
    }

    /**
     * The device to reach {@code destination} from: the one that owns it (a connection to itself),
     * else the one that owns the source address of the host's route there ({@link HostRoute}: the
     * device on the interface whose subnet or gateway reaches it, as the kernel's route lookup picks
     * the netdev), else the first with an address of the same family.
     */
    static CmDevice reaching(InetAddress destination) {
        CmDevice own = owning(destination);
        if (own != null) {
            return own;
        }
        CmDevice routed = HostRoute.sourceFor(destination).map(CmDevices::owning).orElse(null);
        if (routed != null) {
            return routed;
        }
        boolean v4 = destination instanceof Inet4Address;
        for (CmDevice d : DEVICES) {
            if (d.sourceFor(v4) != null) {
                return d;
            }
        }
        return null;
    }
}
