package io.jroce.stack.udp;

import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.pcap.PcapWriter;
import io.jroce.stack.stats.Counter;
import io.jroce.stack.stats.Counters;
import io.jroce.stack.transport.IpAddresses;
import io.jroce.stack.transport.PolledTransport;
import io.jroce.stack.transport.RocePacketHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.LinuxSocket;
import io.netty.channel.unix.Buffer;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RoCEv2 over UDP with no thread of its own, for the invoker progress mode: whichever thread
 * progresses the RNIC reads the ready datagrams ({@link #receive}) and sends ({@link #send},
 * {@link #flush}) itself, with non-blocking system calls on Netty's native sockets (no channel, no
 * event loop), and a fallback thread {@link #await}s readiness while no application thread
 * progresses the device. On the wire and in its counters it is {@link UdpTransport} (see there and
 * docs/udp-transport.md): one socket per local address, IPv4 sockets with IP_MTU_DISCOVER =
 * IP_PMTUDISC_DO (IP ID 0 with DF, which the ICRC is computed for), IPv6 sockets with
 * UDP_NO_CHECK6_RX (rxe's zero checksums), the same receive checks ({@link DatagramReceiver}), runs
 * of same-size datagrams to one destination sent as one UDP GSO message, the same capture.
 *
 * <p><b>Threading</b> (the {@link PolledTransport} contract). {@link #receive}, {@link #send},
 * {@link #flush}, {@link #joinGroup} and {@link #leaveGroup} from any thread, never two at once
 * (the device's progress owner); the handler runs on the thread in {@link #receive}, and packets it
 * sends are flushed when {@link #receive} returns. {@link #await} from one thread at a time,
 * concurrently with the others; {@link #wakeUp} from any thread at any time; {@link #close} once,
 * when no other call runs.
 *
 * <p><b>No allocation per datagram</b> when {@link #allocationFree()}: reads are recvmmsg(2)
 * batches and sends sendmmsg(2) batches of preallocated entries reached through
 * {@link EpollInternals} (Netty's public calls allocate an address object per datagram). If that
 * reflection fails (another Netty version), the transport logs it once and uses Netty's public
 * calls: one datagram per system call, GSO off, an allocation per datagram.
 *
 * <p><b>Send queue.</b> Datagrams wait in a preallocated buffer of {@link Builder#sendQueueBytes}
 * per socket until {@link #flush} (or the end of {@link #receive}); what the kernel does not take
 * (EAGAIN) stays queued and goes with the next flush or receive. When no room is left and the
 * kernel takes nothing, {@link #send} returns false and counts {@link Counter#DROP_TX_FAILED}.
 * A message the kernel refuses otherwise (e.g. EMSGSIZE) is dropped and its datagrams counted
 * there too; a refused GSO message (EIO, EINVAL) also turns GSO off with a warning.
 *
 * <p>Requires native epoll: {@link Builder#build()} fails where it is unavailable.
 */
public final class DirectUdpTransport implements PolledTransport {
    private static final Logger LOG = LoggerFactory.getLogger(DirectUdpTransport.class);
    private static final AtomicBoolean FALLBACK_LOGGED = new AtomicBoolean();
    /** setsockopt levels and names (linux/in.h, linux/in6.h, linux/udp.h). */
    private static final int IPPROTO_IP = 0;
    private static final int IP_MTU_DISCOVER = 10;
    private static final int IP_PMTUDISC_DO = 2;
    private static final int IP_ADD_MEMBERSHIP = 35;
    private static final int IPPROTO_IPV6 = 41;
    private static final int IPV6_ADD_MEMBERSHIP = 20;
    private static final int SOL_UDP = 17;
    private static final int UDP_NO_CHECK6_RX = 102;
    /** setsockopt(SOL_UDP, UDP_GRO = 104): linux/udp.h, Linux 5.0. */
    private static final int UDP_GRO = 104;
    private static final DirectSocket[] NO_SOCKETS = new DirectSocket[0];

    private final Counters counters;
    private final DirectSocket[] sockets;
    private final int port;
    private final DatagramReceiver receiver;
    private final IcrcCalculator icrc = new IcrcCalculator();
    /** Capture of what is sent and received, or null. */
    private final PcapWriter pcap;
    private final UnsafeBuffer txView = new UnsafeBuffer();
    private final EpollReadiness readiness;
    private final boolean allocationFree;
    private final Builder settings;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** The multicast groups joined, by group address. Guarded by itself. */
    private final Map<InetAddress, DirectSocket> groups = new LinkedHashMap<>();
    /** The groups' sockets, replaced (not changed) by join and leave; read by {@link #receive}. */
    private volatile DirectSocket[] groupSockets = NO_SOCKETS;
    private volatile boolean started;
    /** A send queue holds datagrams: flush them. */
    private boolean flushPending;
    /** The socket {@link #receive} reads first, turning so that none waits behind the others. */
    private int firstSocket;

    private DirectUdpTransport(Builder b) {
        this.counters = b.counters != null ? b.counters : new Counters();
        this.settings = b;
        this.allocationFree = b.allowInternals && nativeBatchesAvailable();
        this.pcap = openPcap(b.pcap);
        this.receiver = new DatagramReceiver(counters, pcap, b.maxDatagramSize);
        List<DirectSocket> opened = new ArrayList<>();
        EpollReadiness r = null;
        try {
            r = new EpollReadiness();
            int boundPort = b.port;
            for (InetAddress address : b.addresses) {
                DirectSocket s = open(new LocalEndpoint(address), boundPort, false, true);
                opened.add(s);
                r.add(s.fd());
                boundPort = s.local.port; // with port 0, the first socket picks the port and the others follow
            }
            this.port = boundPort;
        } catch (IOException | RuntimeException e) {
            opened.forEach(DirectSocket::close);
            if (r != null) {
                r.close();
            }
            closePcap();
            if (e instanceof UdpTransportException u) {
                throw u;
            }
            throw new UdpTransportException("cannot set up the direct UDP transport: " + e.getMessage(), e);
        }
        this.readiness = r;
        this.sockets = opened.toArray(NO_SOCKETS);
        String how = allocationFree ? "recvmmsg/sendmmsg batches" : "Netty's public calls, one datagram per call";
        if (b.quiet) {
            LOG.debug("direct UDP transport bound to {} ({})", Arrays.toString(sockets), how);
        } else {
            LOG.info("direct UDP transport bound to {} ({})", Arrays.toString(sockets), how);
        }
    }

    private static boolean nativeBatchesAvailable() {
        boolean ok = EpollInternals.DATAGRAMS_AVAILABLE && Buffer.addressSize() == 8;
        if (!ok && FALLBACK_LOGGED.compareAndSet(false, true)) {
            LOG.info("direct UDP transport: Netty's native datagram batches are out of reach ({}); using its public"
                    + " calls, which allocate per datagram and send one datagram per system call",
                EpollInternals.DATAGRAMS_AVAILABLE ? "not a 64-bit platform"
                    : String.valueOf(EpollInternals.DATAGRAMS_UNAVAILABILITY_CAUSE));
        }
        return ok;
    }

    /**
     * Starts describing a transport.
     *
     * @return a builder with the defaults
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * True when datagrams go through recvmmsg/sendmmsg batches of preallocated entries
     * ({@link EpollInternals}): nothing is allocated per datagram. False on the fallback to Netty's
     * public calls.
     *
     * @return whether the batches are in use
     */
    public boolean allocationFree() {
        return allocationFree;
    }

    /**
     * True while runs to one destination leave as UDP GSO messages (per the first socket).
     *
     * @return whether GSO is on
     */
    public boolean gso() {
        return sockets[0].sendQueue.gso();
    }

    /** The UDP_SEGMENT option of the first socket now (0: not set); for tests. */
    int segmentOption() {
        return sockets[0].sendQueue.segmentOption();
    }

    /** The first unicast socket; for tests that set an option the transport never sets. */
    LinuxSocket firstSocket() {
        return sockets[0].socket;
    }

    /**
     * The UDP port every socket is bound to (the one chosen by the kernel if 0 was configured).
     *
     * @return the port
     */
    public int port() {
        return port;
    }

    /**
     * The bound sockets, in configuration order.
     *
     * @return the addresses and port
     */
    public List<InetSocketAddress> localAddresses() {
        List<InetSocketAddress> list = new ArrayList<>(sockets.length);
        for (DirectSocket s : sockets) {
            list.add(s.local.socketAddress());
        }
        return List.copyOf(list);
    }

    /**
     * Where the transport counts its drops.
     *
     * @return the counters
     */
    public Counters counters() {
        return counters;
    }

    /**
     * IPv4 packets accepted only through ID recovery, as {@link UdpTransport#ipv4IdRecoveries()}.
     *
     * @return the count
     */
    public long ipv4IdRecoveries() {
        return receiver.ipv4IdRecoveries();
    }

    /** Registers the handler; reads nothing (datagrams wait in the sockets until {@link #receive}). */
    @Override
    public void start(RocePacketHandler handler) {
        Objects.requireNonNull(handler, "handler");
        if (closed.get()) {
            throw new IllegalStateException("the UDP transport is closed");
        }
        if (started) {
            throw new IllegalStateException("start() was already called");
        }
        receiver.handler(handler);
        started = true;
    }

    @Override
    public int receive(int maxDatagrams) {
        if (!started || closed.get()) {
            return 0;
        }
        DirectSocket[] unicast = sockets;
        DirectSocket[] joined = groupSockets;
        int n = unicast.length + joined.length;
        int first = firstSocket < n ? firstSocket : 0;
        int total = 0;
        // A handler may close the transport (a device closed from a callback): stop reading then.
        for (int k = 0; k < n && total < maxDatagrams && !closed.get(); k++) {
            int i = first + k < n ? first + k : first + k - n;
            DirectSocket s = i < unicast.length ? unicast[i] : joined[i - unicast.length];
            try {
                total += s.reader.read(maxDatagrams - total, s.local, receiver);
            } catch (IOException e) {
                receiver.internalError("read failed on " + s, e);
            }
        }
        firstSocket = first + 1 < n ? first + 1 : 0;
        return total; // what the handler sent waits for flush(): see PolledTransport#receive
    }

    @Override
    public void await(long timeoutNs, boolean watchSockets) {
        if (closed.get()) {
            return; // the epoll set is closed: its descriptor number may be another file's by now
        }
        try {
            readiness.await(timeoutNs, watchSockets);
        } catch (IOException e) {
            throw new IllegalStateException("epoll_wait failed in the direct UDP transport: " + e.getMessage(), e);
        }
    }

    /** Ends the running {@link #await} or the next one; ignored once closed. Any thread. */
    @Override
    public void wakeUp() {
        readiness.wakeUp();
    }

    /**
     * Queues one packet; {@link #flush} sends. Returns false, counted, when {@code srcAddress} is
     * not one of ours or the destination is of the other address family ({@link Counter#DROP_NO_ROUTE}),
     * or when the length is impossible or the send queue is full and the kernel takes nothing
     * ({@link Counter#DROP_TX_FAILED}).
     */
    @Override
    public boolean send(DirectBuffer packet, int offset, int length, byte[] srcAddress, byte[] dstAddress, int dstPort) {
        if (closed.get()) {
            counters.increment(Counter.DROP_TX_FAILED); // as UdpTransport's send on a closed channel
            return false;
        }
        DirectSocket s = socket(srcAddress);
        if (s == null || dstAddress.length != 16 || IpAddresses.isIpv4Mapped(dstAddress) != s.local.ipv4) {
            counters.increment(Counter.DROP_NO_ROUTE); // not our address, or mixed address families
            return false;
        }
        LocalEndpoint ep = s.local;
        int max = ep.ipv4 ? IcrcCalculator.MAX_IPV4_ROCE_LENGTH : IcrcCalculator.MAX_IPV6_ROCE_LENGTH;
        if (length < IcrcCalculator.BTH_LENGTH || length > max) {
            counters.increment(Counter.DROP_TX_FAILED);
            return false;
        }
        int datagramLength = length + IcrcCalculator.ICRC_LENGTH;
        DatagramSendQueue queue = s.sendQueue;
        try {
            InetSocketAddress recipient = allocationFree ? null : ep.destinations.get(dstAddress, dstPort);
            int scope = !ep.ipv4 && dstAddress[0] == (byte) 0xFE && (dstAddress[1] & 0xC0) == 0x80 ? s.scopeId : 0;
            int at = queue.reserve(dstAddress, dstPort, scope, recipient, datagramLength);
            if (at < 0) {
                counters.increment(Counter.DROP_TX_FAILED); // the queue is full and the kernel takes nothing
                flushPending = true;
                return false;
            }
            UnsafeBuffer out = queue.buffer();
            out.putBytes(at, packet, offset, length);
            txView.wrap(out, at, length);
            int ipId = queue.ipv4Id(); // the IPv4 ID the kernel gives this datagram
            int crc = ep.ipv4
                ? icrc.computeIpv4(ep.ipv4Int, IpAddresses.ipv4(dstAddress), ipId, IcrcCalculator.IPV4_FLAGS_DF,
                    ep.port, dstPort, txView, 0, length)
                : icrc.computeIpv6(ep.address16, dstAddress, ep.port, dstPort, txView, 0, length);
            out.putInt(at + length, crc, ByteOrder.LITTLE_ENDIAN);
            queue.commit(datagramLength);
            if (pcap != null) {
                capture(ep, dstAddress, dstPort, length, crc, ipId);
            }
            flushPending = true;
            return true;
        } catch (RuntimeException e) {
            counters.increment(Counter.DROP_TX_FAILED);
            LOG.debug("send from {} failed", ep, e);
            return false;
        }
    }

    @Override
    public void flush() {
        if (flushPending && !closed.get()) {
            flushQueues();
        }
    }

    private void flushQueues() {
        boolean left = false;
        for (DirectSocket s : sockets) {
            if (!s.sendQueue.isEmpty()) {
                left |= !s.sendQueue.flush();
            }
        }
        flushPending = left;
        if (pcap != null) {
            pcap.flush();
        }
    }

    /** Writes the packet in {@link #txView} to the capture, with the IP header the kernel will write. */
    private void capture(LocalEndpoint ep, byte[] dstAddress, int dstPort, int length, int crc, int ipId) {
        if (ep.ipv4) {
            pcap.ipv4(ep.ipv4Int, IpAddresses.ipv4(dstAddress), ipId, IcrcCalculator.IPV4_FLAGS_DF, ep.port, dstPort,
                txView, 0, length, crc);
        } else {
            pcap.ipv6(ep.address16, dstAddress, ep.port, dstPort, txView, 0, length, crc);
        }
    }

    /**
     * Joins the multicast group {@code group} as {@link UdpTransport#joinGroup} does: a socket bound
     * to the group address and {@link #port()} with SO_REUSEADDR, a member of the group on the
     * interface of every local address of its family; {@link #receive} reads it and {@link #await}
     * watches it like the unicast sockets. Joining twice is joining once.
     *
     * @throws UdpTransportException no local address of the group's family, or the kernel refused
     *                               the socket or the membership
     */
    @Override
    public void joinGroup(byte[] group) {
        InetAddress address = Addresses.groupAddress(group);
        synchronized (groups) {
            if (closed.get()) {
                throw new IllegalStateException("the UDP transport is closed");
            }
            if (groups.containsKey(address)) {
                return;
            }
            List<NetworkInterface> interfaces = new ArrayList<>();
            for (DirectSocket s : sockets) {
                if (s.local.ipv4 == Addresses.isIpv4(address)) {
                    interfaces.add(Addresses.interfaceOf(s.local));
                }
            }
            if (interfaces.isEmpty()) {
                throw new UdpTransportException("no local address of the family of group " + address.getHostAddress());
            }
            DirectSocket g = open(new LocalEndpoint(address), port, true, false);
            try {
                for (NetworkInterface ni : interfaces) {
                    join(g, address, ni);
                }
                readiness.add(g.fd());
            } catch (IOException | RuntimeException e) {
                g.close();
                throw new UdpTransportException("cannot join multicast group " + address.getHostAddress() + " on "
                    + interfaces + ": " + e.getMessage(), e);
            }
            groups.put(address, g);
            groupSockets = groups.values().toArray(NO_SOCKETS);
            LOG.info("joined multicast group {} on {}", g, interfaces);
        }
    }

    /** IP_ADD_MEMBERSHIP (struct ip_mreqn) or IPV6_ADD_MEMBERSHIP (struct ipv6_mreq) on {@code ni}. */
    private static void join(DirectSocket g, InetAddress group, NetworkInterface ni) throws IOException {
        ByteBuffer request = ByteBuffer.allocateDirect(20).order(ByteOrder.nativeOrder());
        request.put(group.getAddress()); // network byte order
        if (group instanceof Inet4Address) {
            request.putInt(0); // imr_address: chosen by the interface index
            request.putInt(ni.getIndex());
            request.flip();
            g.socket.setRawOpt(IPPROTO_IP, IP_ADD_MEMBERSHIP, request);
        } else {
            request.putInt(ni.getIndex());
            request.flip();
            g.socket.setRawOpt(IPPROTO_IPV6, IPV6_ADD_MEMBERSHIP, request);
        }
    }

    /** Leaves {@code group}: closes its socket, which drops the memberships. A group not joined is ignored. */
    @Override
    public void leaveGroup(byte[] group) {
        InetAddress address = Addresses.groupAddress(group);
        synchronized (groups) {
            DirectSocket g = groups.remove(address);
            if (g != null) {
                groupSockets = groups.values().toArray(NO_SOCKETS);
                readiness.remove(g.fd());
                g.close();
            }
        }
    }

    /**
     * The multicast groups joined, as group address and port; for tests and tools.
     *
     * @return a new list of them
     */
    public List<InetSocketAddress> groups() {
        synchronized (groups) {
            List<InetSocketAddress> list = new ArrayList<>();
            for (DirectSocket g : groups.values()) {
                list.add(g.local.socketAddress());
            }
            return List.copyOf(list);
        }
    }

    /**
     * Closes the sockets, the epoll set and the capture; datagrams still queued are dropped and
     * counted ({@link Counter#DROP_TX_FAILED}). Idempotent; not while another call runs, except from
     * the handler inside {@link #receive}, which then reads no more. Afterwards {@link #send} is
     * refused and counted, and {@link #receive}, {@link #flush} and {@link #await} return at once:
     * nothing reaches the closed descriptors, whose numbers the kernel may give to other files.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        List<DirectSocket> all = new ArrayList<>(List.of(sockets));
        synchronized (groups) {
            all.addAll(groups.values());
            groups.clear();
            groupSockets = NO_SOCKETS;
        }
        for (DirectSocket s : sockets) {
            if (s.sendQueue != null) {
                counters.add(Counter.DROP_TX_FAILED, s.sendQueue.drop()); // queued, never to be sent
            }
        }
        flushPending = false;
        all.forEach(DirectSocket::close);
        readiness.close();
        closePcap();
    }

    private DirectSocket socket(byte[] address16) {
        for (DirectSocket s : sockets) {
            if (Arrays.equals(s.local.address16, address16)) {
                return s;
            }
        }
        return null;
    }

    /** Opens, configures and binds a non-blocking socket for {@code ep}; SO_REUSEADDR for a group's socket. */
    private DirectSocket open(LocalEndpoint ep, int bindPort, boolean reuseAddress, boolean sends) {
        String where = Addresses.describe(ep.address, bindPort);
        LinuxSocket socket;
        try {
            socket = LinuxSocket.newSocketDgram(!ep.ipv4); // non-blocking, AF_INET or AF_INET6
        } catch (RuntimeException e) {
            throw new UdpTransportException("cannot open a UDP socket for " + where + ": " + e.getMessage(), e);
        }
        try {
            if (ep.ipv4) {
                setIntOption(socket, IPPROTO_IP, IP_MTU_DISCOVER, IP_PMTUDISC_DO, "IP_MTU_DISCOVER", where);
            } else {
                setIntOption(socket, SOL_UDP, UDP_NO_CHECK6_RX, 1, "UDP_NO_CHECK6_RX", where);
            }
            if (settings.socketBufferSize > 0) {
                socket.setReceiveBufferSize(settings.socketBufferSize);
                socket.setSendBufferSize(settings.socketBufferSize);
            }
            if (reuseAddress) {
                // Other devices of this host (jroce or not) may listen to the same group and port.
                socket.setReuseAddress(true);
            }
            socket.bind(new InetSocketAddress(ep.address, bindPort));
            ep.port = socket.localAddress().getPort();
            boolean ipv6 = !ep.ipv4;
            boolean gro = settings.gro && allocationFree && groOn(socket, where);
            DatagramReader reader = new DatagramReader(socket, ipv6, settings.maxDatagramSize, settings.receiveBatch,
                allocationFree, gro);
            DatagramSendQueue queue = !sends ? null : new DatagramSendQueue(socket, ipv6, ep.ipv4,
                settings.sendQueueBytes, settings.gso && EpollDatagramChannel.isSegmentedDatagramPacketSupported(),
                allocationFree, counters, ep.toString());
            int scope = ep.address instanceof Inet6Address a6 ? a6.getScopeId() : 0;
            return new DirectSocket(ep, socket, reader, queue, scope);
        } catch (IOException | RuntimeException e) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // reporting the first failure
            }
            if (e instanceof UdpTransportException u) {
                throw u;
            }
            throw new UdpTransportException("cannot bind a UDP socket to " + where + ": " + e.getMessage(), e);
        }
    }

    /** Turns UDP_GRO on; false (logged at debug level) when the kernel refuses it. */
    private static boolean groOn(LinuxSocket socket, String where) {
        try {
            socket.setIntOpt(SOL_UDP, UDP_GRO, 1);
            return socket.getIntOpt(SOL_UDP, UDP_GRO) == 1;
        } catch (IOException e) {
            LOG.debug("no UDP_GRO on the socket for {} ({}): reading in recvmmsg batches", where, e.toString());
            return false;
        }
    }

    private static void setIntOption(LinuxSocket socket, int level, int option, int value, String name, String where)
        throws IOException {
        socket.setIntOpt(level, option, value);
        int read = socket.getIntOpt(level, option);
        if (read != value) {
            throw new UdpTransportException("cannot set " + name + "=" + value + " on the socket for " + where
                + " (reads back " + read + ")");
        }
    }

    private static PcapWriter openPcap(Path file) {
        if (file == null) {
            return null;
        }
        try {
            return PcapWriter.create(file);
        } catch (IOException e) {
            throw new UdpTransportException("cannot write the capture file " + file + ": " + e, e);
        }
    }

    private void closePcap() {
        if (pcap == null) {
            return;
        }
        try {
            pcap.close();
        } catch (IOException e) {
            LOG.warn("capture file {} is incomplete: {}", pcap.file(), e.toString());
        }
    }

    /** Configuration of a {@link DirectUdpTransport}; {@link #build()} opens and binds the sockets. */
    public static final class Builder {
        private final List<InetAddress> addresses = new ArrayList<>();
        private int port = UdpTransport.ROCE_V2_PORT;
        /** A private transport (the loopback warm-up's): its binding is logged at debug level only. */
        boolean quiet;
        private Counters counters;
        private int maxDatagramSize = UdpTransport.DEFAULT_MAX_DATAGRAM_SIZE;
        private int receiveBatch = UdpTransport.DEFAULT_RECEIVE_BATCH;
        private int socketBufferSize;
        private int sendQueueBytes = UdpTransport.DEFAULT_SEND_QUEUE_BYTES;
        private boolean gso = true;
        private boolean gro;
        private boolean allowInternals = true;
        private Path pcap;

        private Builder() {
        }

        /**
         * Adds a local address to bind: an IPv4 or IPv6 literal ("192.0.2.1", "2001:db8::1",
         * "fe80::1%eth0"); not a host name, not a wildcard, not multicast.
         *
         * @param ipLiteral an IP address literal of this host
         * @return this builder
         */
        public Builder localAddress(String ipLiteral) {
            addresses.add(Addresses.localAddress(ipLiteral, addresses));
            return this;
        }

        /**
         * Adds several local addresses, as {@link #localAddress} each.
         *
         * @param ipLiterals IP address literals of this host
         * @return this builder
         */
        public Builder localAddresses(Collection<String> ipLiterals) {
            ipLiterals.forEach(this::localAddress);
            return this;
        }

        /**
         * The UDP port of every socket: {@value UdpTransport#ROCE_V2_PORT} by default. With 0 the
         * kernel chooses one for the first address and the other addresses bind the same port.
         *
         * @param port 0..65535
         * @return this builder
         * @throws IllegalArgumentException the port is out of range
         */
        public Builder port(int port) {
            if (port < 0 || port > 0xFFFF) {
                throw new IllegalArgumentException("UDP port out of range: " + port);
            }
            this.port = port;
            return this;
        }

        /**
         * Where drops are counted; usually the RNIC's own counters. A new set by default.
         *
         * @param counters the counters
         * @return this builder
         */
        public Builder counters(Counters counters) {
            this.counters = Objects.requireNonNull(counters, "counters");
            return this;
        }

        /**
         * Largest datagram received whole; {@value UdpTransport#DEFAULT_MAX_DATAGRAM_SIZE} by default.
         *
         * @param bytes the size in bytes
         * @return this builder
         * @throws IllegalArgumentException the size is out of range
         */
        public Builder maxDatagramSize(int bytes) {
            if (bytes < DatagramReceiver.MIN_DATAGRAM || bytes > 0xFFFF) {
                throw new IllegalArgumentException("max datagram size out of range: " + bytes);
            }
            this.maxDatagramSize = bytes;
            return this;
        }

        /**
         * Datagrams per recvmmsg; {@value UdpTransport#DEFAULT_RECEIVE_BATCH} by default.
         *
         * @param datagrams 1..64
         * @return this builder
         * @throws IllegalArgumentException the batch is out of range
         */
        public Builder receiveBatch(int datagrams) {
            if (datagrams < 1 || datagrams > 64) {
                throw new IllegalArgumentException("receive batch must be 1..64: " + datagrams);
            }
            this.receiveBatch = datagrams;
            return this;
        }

        /**
         * UDP generic segmentation offload (UDP_SEGMENT, Linux 4.18+; on by default): consecutive
         * datagrams of one size to one destination leave as one message that the kernel cuts up.
         * Off, each datagram is its own sendmmsg entry.
         *
         * @param enabled whether to send with GSO
         * @return this builder
         */
        public Builder gso(boolean enabled) {
            this.gso = enabled;
            return this;
        }

        /**
         * UDP generic receive offload (UDP_GRO, Linux 5.0+; off by default): a sender's GSO message
         * (on loopback, or coalesced by the receiving NIC) arrives as one run that one recvmsg(2)
         * reads, instead of datagrams that recvmmsg(2) reads in batches. Only with the native
         * batches ({@link DirectUdpTransport#allocationFree()}); a kernel that refuses the option
         * reads in batches.
         *
         * @param enabled whether to receive with GRO
         * @return this builder
         */
        public Builder gro(boolean enabled) {
            this.gro = enabled;
            return this;
        }

        /**
         * SO_RCVBUF and SO_SNDBUF (the kernel caps them at net.core.[rw]mem_max); 0 keeps its default.
         *
         * @param bytes the size, 0 for the kernel's default
         * @return this builder
         * @throws IllegalArgumentException the size is negative
         */
        public Builder socketBufferSize(int bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("socket buffer size must not be negative: " + bytes);
            }
            this.socketBufferSize = bytes;
            return this;
        }

        /**
         * Bytes queued per socket (the preallocated send buffer) beyond which, when the kernel takes
         * nothing more, {@link DirectUdpTransport#send} returns false.
         *
         * @param bytes the limit
         * @return this builder
         * @throws IllegalArgumentException the limit is too small
         */
        public Builder sendQueueBytes(int bytes) {
            if (bytes < 2 * UdpTransport.DEFAULT_MAX_DATAGRAM_SIZE) {
                throw new IllegalArgumentException("send queue too small: " + bytes);
            }
            this.sendQueueBytes = bytes;
            return this;
        }

        /**
         * Captures every packet sent and received to {@code file} (created or truncated by
         * {@link #build()}), as classic pcap that Wireshark decodes as RoCEv2.
         *
         * @param file the capture file
         * @return this builder
         */
        public Builder pcap(Path file) {
            this.pcap = Objects.requireNonNull(file, "file");
            return this;
        }

        /** Uses Netty's public (allocating) datagram calls even where the batches are reachable; for tests. */
        Builder publicCallsOnly() {
            this.allowInternals = false;
            return this;
        }

        /**
         * Opens, configures and binds one socket per local address.
         *
         * @throws UdpTransportException native epoll is unavailable, or a socket cannot be opened,
         *                               configured or bound
         * @return the transport, the caller's to close
         * @throws IllegalStateException no local address was given
         */
        public DirectUdpTransport build() {
            if (addresses.isEmpty()) {
                throw new IllegalStateException("no local address configured");
            }
            if (!Epoll.isAvailable()) {
                throw new UdpTransportException("the direct UDP transport needs native epoll, which is unavailable: "
                    + Epoll.unavailabilityCause(), Epoll.unavailabilityCause());
            }
            return new DirectUdpTransport(this);
        }
    }
}
