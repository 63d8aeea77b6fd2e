package io.jroce.stack.udp;

import io.jroce.stack.transport.IpAddresses;
import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.pcap.PcapWriter;
import io.jroce.stack.stats.Counter;
import io.jroce.stack.stats.Counters;
import io.jroce.stack.transport.RocePacketHandler;
import io.jroce.stack.transport.RoceTransport;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramChannelConfig;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.InternetProtocolFamily;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.unix.IntegerUnixChannelOption;
import io.netty.util.NetUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RoCEv2 over UDP: one socket per local IP address, all on one single-threaded Netty
 * {@link EventLoop} that the RNIC shares ({@link #eventLoop()}).
 *
 * <p><b>Threading.</b> Received packets reach the {@link RocePacketHandler} on the event loop;
 * {@link #send} and {@link #flush} must be called on it; the RNIC schedules its timers and
 * wake-ups on it ({@code eventLoop().schedule(...)}, {@code eventLoop().execute(...)}), so its
 * state needs no locks. Packets sent while handling a batch of received ones are flushed when the
 * batch ends even if the RNIC does not call {@link #flush}.
 *
 * <p><b>What the kernel must do for rxe interop</b> (docs/udp-transport.md), with native epoll:
 * IPv4 sockets set IP_MTU_DISCOVER to IP_PMTUDISC_DO, so Linux sends IP ID 0 with DF and the ICRC
 * computed for that header holds on the wire (and oversized datagrams fail instead of being
 * fragmented); IPv6 sockets set UDP_NO_CHECK6_RX, so the kernel delivers rxe's zero-checksum
 * packets. With the NIO fallback ({@link IoMode#NIO}) neither is possible: see there.
 *
 * <p><b>Send:</b> the packet (BTH to pad) is copied into a pooled direct buffer and the ICRC is
 * appended for the header the kernel will write: IPv4 with ID 0 and DF, or IPv6; the UDP source
 * port is the socket's. <b>Receive:</b> the ICRC is verified for the header the datagram came
 * with, exactly for IPv6; for IPv4 first exactly for ID 0 with DF, else through
 * {@link io.jroce.stack.icrc.Ipv4IdRecovery}. Drops are counted ({@link Counter#DROP_TRUNCATED},
 * {@link Counter#DROP_BAD_ICRC}, {@link Counter#DROP_TX_FAILED}, {@link Counter#DROP_NO_ROUTE}, and
 * {@link Counter#DROP_INTERNAL_ERROR} for a packet whose handler threw);
 * sent and received packets are counted by the RNIC.
 *
 * <p><b>Capture</b> ({@link Builder#pcap}): every packet handed to a socket and every datagram
 * received (except those too short to hold a BTH and ICRC) is written to a pcap file on the
 * event loop, with the IP ID the ICRC was verified with; the file is flushed with each batch.
 */
public final class UdpTransport implements RoceTransport {
    private static final Logger LOG = LoggerFactory.getLogger(UdpTransport.class);

    /** The RoCEv2 UDP destination port (IBTA Vol. 1 Annex A17, RoCEv2). */
    public static final int ROCE_V2_PORT = 4791;
    /**
     * Largest datagram received whole by default: a 4096-byte payload (the largest RoCE path MTU)
     * plus the longest header chain and ICRC, with room to spare. A longer one is dropped and
     * counted ({@link Counter#DROP_OVERSIZED}), whether or not UDP GRO is on.
     */
    public static final int DEFAULT_MAX_DATAGRAM_SIZE = 4096 + 256;
    /** Datagrams read per recvmmsg call with epoll. */
    public static final int DEFAULT_RECEIVE_BATCH = 8;
    /** Bytes queued per socket for sending before {@link #send} refuses packets. */
    public static final int DEFAULT_SEND_QUEUE_BYTES = 4 << 20;

    /** setsockopt(IPPROTO_IP = 0, IP_MTU_DISCOVER = 10): linux/in.h. */
    static final IntegerUnixChannelOption IP_MTU_DISCOVER = new IntegerUnixChannelOption("IP_MTU_DISCOVER", 0, 10);
    static final int IP_PMTUDISC_DO = 2;
    /** setsockopt(SOL_UDP = 17, UDP_NO_CHECK6_RX = 102): linux/udp.h. */
    static final IntegerUnixChannelOption UDP_NO_CHECK6_RX = new IntegerUnixChannelOption("UDP_NO_CHECK6_RX", 17, 102);
    private static final long CLOSE_TIMEOUT_SECONDS = 10;
    /** Read buffer with UDP_GRO: the largest coalesced datagram (64 KiB) fits whole. */
    private static final int GRO_READ_SIZE = 65536;

    private final IoMode ioMode;
    private final EventLoopGroup group;
    private final EventLoop loop;
    private final Counters counters;
    private final LocalEndpoint[] endpoints;
    private final int port;
    private final DatagramReceiver receiver;
    private final IcrcCalculator icrc = new IcrcCalculator();
    /** Capture of what is sent and received, or null; used on the event loop only. */
    private final PcapWriter pcap;
    private final UnsafeBuffer txView = new UnsafeBuffer();
    private final DirectWindow txWindow = new DirectWindow();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** The settings sockets opened after the build (multicast group sockets) are configured with. */
    private final Builder settings;
    /**
     * The multicast groups joined, by group address: each a socket bound to the group address and
     * the transport's port, a member of the group on every local address of its family. Written
     * under its own lock by {@link #joinGroup}/{@link #leaveGroup}.
     */
    private final Map<InetAddress, LocalEndpoint> groups = new LinkedHashMap<>();
    private boolean started;

    private UdpTransport(Builder b) {
        this.ioMode = resolve(b.ioMode);
        this.counters = b.counters != null ? b.counters : new Counters();
        this.settings = b;
        this.pcap = openPcap(b.pcap);
        this.receiver = new DatagramReceiver(counters, pcap, b.maxDatagramSize);
        this.endpoints = new LocalEndpoint[b.addresses.size()];
        for (int i = 0; i < endpoints.length; i++) {
            endpoints[i] = new LocalEndpoint(b.addresses.get(i));
        }
        ThreadFactory threads = new DefaultThreadFactory("jroce-udp", true);
        this.group = ioMode != IoMode.EPOLL ? new NioEventLoopGroup(1, threads)
            : b.pollingHint == null ? new EpollEventLoopGroup(1, threads)
            : new EpollEventLoopGroup(1, threads, () -> new HintedSelectStrategy(b.pollingHint));
        this.loop = group.next();
        int boundPort = b.port;
        try {
            for (LocalEndpoint ep : endpoints) {
                bind(ep, boundPort, b, false);
                boundPort = ep.port; // with port 0, the first socket picks the port and the others follow
            }
        } catch (RuntimeException e) {
            group.shutdownGracefully(0, CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS).awaitUninterruptibly();
            closePcap();
            throw e;
        }
        this.port = boundPort;
        if (b.quiet) {
            LOG.debug("UDP transport ({}) bound to {}", ioMode, Arrays.toString(endpoints));
        } else {
            LOG.info("UDP transport ({}) bound to {}", ioMode, Arrays.toString(endpoints));
        }
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
     * The one thread everything runs on: packets are delivered on it, {@link #send} and
     * {@link #flush} must be called on it, and the RNIC runs its timers and work on it.
     *
     * @return the event loop
     */
    public EventLoop eventLoop() {
        return loop;
    }

    /**
     * The Netty transport in use: {@link IoMode#EPOLL} or {@link IoMode#NIO}.
     *
     * @return the I/O mode
     */
    public IoMode ioMode() {
        return ioMode;
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
        List<InetSocketAddress> list = new ArrayList<>(endpoints.length);
        for (LocalEndpoint ep : endpoints) {
            list.add(ep.socketAddress());
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

    /** The sockets, in configuration order; for tests. */
    List<DatagramChannel> channels() {
        List<DatagramChannel> list = new ArrayList<>(endpoints.length);
        for (LocalEndpoint ep : endpoints) {
            list.add(ep.channel);
        }
        return list;
    }

    /**
     * IPv4 packets accepted only through ID recovery: their ICRC was computed over a nonzero IP ID
     * or a clear DF, as Linux rxe computes it over the ID it sends. Packets from Java senders,
     * jroce included, never need it: a Java sender cannot know the ID the kernel writes, so it
     * computes the ICRC for ID 0 with DF, which is what the receiver checks first.
     *
     * @return the count
     */
    public long ipv4IdRecoveries() {
        return receiver.ipv4IdRecoveries();
    }

    /** Starts reading: until then received datagrams wait in the sockets' buffers. */
    @Override
    public void start(RocePacketHandler handler) {
        Objects.requireNonNull(handler, "handler");
        if (closed.get()) {
            throw new IllegalStateException("the UDP transport is closed");
        }
        runOnLoop(() -> {
            if (closed.get()) {
                throw new IllegalStateException("the UDP transport is closed");
            }
            if (started) {
                throw new IllegalStateException("start() was already called");
            }
            started = true;
            receiver.handler(handler);
            for (LocalEndpoint ep : endpoints) {
                // The loop thread's first pooled buffer builds its allocator cache (tens of classes): now,
                // rather than inside the device's first send, which a cold JVM otherwise slows by tens of ms.
                ep.channel.alloc().directBuffer(DEFAULT_MAX_DATAGRAM_SIZE).release();
                ep.channel.config().setAutoRead(true);
            }
            synchronized (groups) {
                for (LocalEndpoint g : groups.values()) {
                    g.channel.config().setAutoRead(true);
                }
            }
        });
    }

    /**
     * Queues one packet; {@link #flush} sends. Returns false, counted, when {@code srcAddress} is
     * not one of ours or the destination is of the other address family ({@link Counter#DROP_NO_ROUTE}),
     * or when the length is impossible or the socket's send queue is full ({@link Counter#DROP_TX_FAILED}).
     * A write the kernel refuses later (e.g. EMSGSIZE above the path MTU) is counted as
     * {@link Counter#DROP_TX_FAILED} when it happens.
     */
    @Override
    public boolean send(DirectBuffer packet, int offset, int length, byte[] srcAddress, byte[] dstAddress, int dstPort) {
        checkInEventLoop();
        LocalEndpoint ep = endpoint(srcAddress);
        InetSocketAddress recipient = ep == null ? null : ep.destinations.get(dstAddress, dstPort);
        if (recipient == null) {
            counters.increment(Counter.DROP_NO_ROUTE); // not our address, or mixed address families
            return false;
        }
        int max = ep.ipv4 ? IcrcCalculator.MAX_IPV4_ROCE_LENGTH : IcrcCalculator.MAX_IPV6_ROCE_LENGTH;
        DatagramChannel ch = ep.channel;
        if (length < IcrcCalculator.BTH_LENGTH || length > max || !ch.isWritable()) {
            counters.increment(Counter.DROP_TX_FAILED); // malformed, or the socket's queue is full or closed
            return false;
        }
        int datagramLength = length + IcrcCalculator.ICRC_LENGTH;
        try {
            SendBatch batch = ep.sendBatch;
            int segment = batch.reserve(ch, recipient, datagramLength);
            ByteBuf out = batch.buffer();
            int at = out.writerIndex();
            if (!txWindow.wrap(out, at, length, txView)) {
                throw new IllegalStateException("the send buffer is not direct memory");
            }
            txView.putBytes(0, packet, offset, length);
            int ipId = segment; // the IPv4 ID the kernel gives this datagram (see SendBatch.reserve)
            int crc = ep.ipv4
                ? icrc.computeIpv4(ep.ipv4Int, IpAddresses.ipv4(dstAddress), ipId, IcrcCalculator.IPV4_FLAGS_DF,
                    ep.port, dstPort, txView, 0, length)
                : icrc.computeIpv6(ep.address16, dstAddress, ep.port, dstPort, txView, 0, length);
            out.setIntLE(at + length, crc);
            out.writerIndex(at + datagramLength);
            batch.commit(recipient, datagramLength);
            if (pcap != null) {
                capture(ep, dstAddress, dstPort, length, crc, ipId);
            }
            ep.flushPending = true;
            return true;
        } catch (RuntimeException e) {
            counters.increment(Counter.DROP_TX_FAILED);
            LOG.debug("send from {} failed", ep, e);
            return false;
        }
    }

    /**
     * Joins the multicast group {@code group} (IPv4-mapped or IPv6, 16 bytes): opens a socket bound
     * to the group address and {@link #port()} with SO_REUSEADDR, and makes it a member of the group
     * (IGMP/MLD) on the interface of every local address of the group's family. A socket bound to a
     * unicast address never receives group traffic, and the wildcard would take the unicast traffic
     * of every address too: see docs/udp-transport.md. Datagrams it receives reach the handler with
     * the group as their destination address. Sends to the group leave from the unicast sockets.
     * Joining a group twice is joining once. Not on the event loop (it waits for it).
     *
     * @throws UdpTransportException no local address of the group's family, or the kernel refused
     *                               the socket or the membership (e.g. no multicast route)
     */
    @Override
    public void joinGroup(byte[] group) {
        InetAddress address = Addresses.groupAddress(group);
        if (loop.inEventLoop()) {
            throw new IllegalStateException("joinGroup waits for the event loop: call it from another thread");
        }
        synchronized (groups) {
            if (closed.get()) {
                throw new IllegalStateException("the UDP transport is closed");
            }
            if (groups.containsKey(address)) {
                return;
            }
            List<NetworkInterface> interfaces = new ArrayList<>();
            for (LocalEndpoint ep : endpoints) {
                if (ep.ipv4 == Addresses.isIpv4(address)) {
                    interfaces.add(Addresses.interfaceOf(ep));
                }
            }
            if (interfaces.isEmpty()) {
                throw new UdpTransportException("no local address of the family of group " + address.getHostAddress());
            }
            LocalEndpoint g = new LocalEndpoint(address);
            bind(g, port, settings, true);
            try {
                InetSocketAddress groupSocket = new InetSocketAddress(address, port);
                for (NetworkInterface ni : interfaces) {
                    g.channel.joinGroup(groupSocket, ni).syncUninterruptibly();
                }
            } catch (RuntimeException e) {
                g.channel.close().awaitUninterruptibly(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                throw new UdpTransportException("cannot join multicast group " + address.getHostAddress() + " on "
                    + interfaces + ": " + e.getMessage(), e);
            }
            groups.put(address, g);
            runOnLoop(() -> {
                if (started) {
                    g.channel.config().setAutoRead(true);
                }
            });
            LOG.info("joined multicast group {} on {}", g, interfaces);
        }
    }

    /** Leaves {@code group}: closes its socket, which drops the memberships. A group not joined is ignored. */
    @Override
    public void leaveGroup(byte[] group) {
        InetAddress address = Addresses.groupAddress(group);
        LocalEndpoint g;
        synchronized (groups) {
            g = groups.remove(address);
        }
        if (g != null) {
            Future<Void> f = g.channel.close();
            if (!loop.inEventLoop()) {
                f.awaitUninterruptibly(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
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
            for (LocalEndpoint g : groups.values()) {
                list.add(g.socketAddress());
            }
            return List.copyOf(list);
        }
    }

    @Override
    public void flush() {
        checkInEventLoop();
        flushPending();
    }

    private void flushPending() {
        for (LocalEndpoint ep : endpoints) {
            if (ep.flushPending) {
                ep.flushPending = false;
                ep.sendBatch.writeRun(ep.channel);
                ep.channel.flush();
            }
        }
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

    private void releaseBuffers() {
        for (LocalEndpoint ep : endpoints) {
            if (ep.sendBatch != null) {
                ep.sendBatch.release();
            }
        }
        closePcap();
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

    /** Closes the capture; on the event loop once the sockets are closed, so no packet races it. */
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

    /**
     * Closes the sockets and shuts the event loop down, waiting for it to end unless called on it.
     * Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        boolean onLoop = loop.inEventLoop();
        List<LocalEndpoint> sockets = new ArrayList<>(List.of(endpoints));
        synchronized (groups) {
            sockets.addAll(groups.values());
            groups.clear();
        }
        for (LocalEndpoint ep : sockets) {
            if (ep.channel != null) {
                Future<Void> f = ep.channel.close();
                if (!onLoop) {
                    f.awaitUninterruptibly(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                }
            }
        }
        if (onLoop) {
            releaseBuffers();
        } else if (!loop.submit(this::releaseBuffers).awaitUninterruptibly(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            LOG.warn("capture file was not closed within {} s", CLOSE_TIMEOUT_SECONDS);
        }
        Future<?> terminated = group.shutdownGracefully(0, CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (!onLoop && !terminated.awaitUninterruptibly(2 * CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            LOG.warn("UDP transport event loop did not terminate within {} s", 2 * CLOSE_TIMEOUT_SECONDS);
        }
    }

    private LocalEndpoint endpoint(byte[] address16) {
        for (LocalEndpoint ep : endpoints) {
            if (Arrays.equals(ep.address16, address16)) {
                return ep;
            }
        }
        return null;
    }

    private void checkInEventLoop() {
        if (!loop.inEventLoop()) {
            throw new IllegalStateException("call UdpTransport.send/flush on its eventLoop(), not on "
                + Thread.currentThread().getName());
        }
    }

    private void runOnLoop(Runnable task) {
        if (loop.inEventLoop()) {
            task.run();
        } else {
            loop.submit(task).syncUninterruptibly();
        }
    }

    /** Opens, configures, registers and binds the socket of {@code ep}; SO_REUSEADDR for a group's socket. */
    private void bind(LocalEndpoint ep, int bindPort, Builder b, boolean reuseAddress) {
        String where = Addresses.describe(ep.address, bindPort);
        InternetProtocolFamily family = ep.ipv4 ? InternetProtocolFamily.IPv4 : InternetProtocolFamily.IPv6;
        DatagramChannel ch;
        try {
            ch = ioMode == IoMode.EPOLL ? new EpollDatagramChannel(family) : new NioDatagramChannel(family);
        } catch (RuntimeException e) {
            throw new UdpTransportException("cannot open a UDP socket for " + where + ": " + e.getMessage(), e);
        }
        try {
            configure(ch, ep, b, where);
            if (reuseAddress) {
                // Other devices of this host (jroce or not) may listen to the same group and port.
                ch.config().setReuseAddress(true);
            }
            ch.pipeline().addLast(new EndpointHandler(ep, receiver, counters, this::flushPending));
            loop.register(ch).syncUninterruptibly();
            ch.bind(new InetSocketAddress(ep.address, bindPort)).syncUninterruptibly();
        } catch (Exception e) { // sync() rethrows the checked BindException without declaring it
            ch.close();
            if (e instanceof UdpTransportException u) {
                throw u;
            }
            throw new UdpTransportException("cannot bind a UDP socket to " + where + ": " + e.getMessage(), e);
        }
        ep.channel = ch;
        boolean gso = b.gso && ch instanceof EpollDatagramChannel && EpollDatagramChannel.isSegmentedDatagramPacketSupported();
        ep.sendBatch = new SendBatch(ch.alloc(), ep.ipv4, gso);
        ep.port = ch.localAddress().getPort();
    }

    private void configure(DatagramChannel ch, LocalEndpoint ep, Builder b, String where) {
        DatagramChannelConfig config = ch.config();
        config.setAutoRead(false);
        boolean gro = b.gro && ch instanceof EpollDatagramChannel;
        boolean batched = ch instanceof EpollDatagramChannel && b.receiveBatch > 1 && !gro;
        // One byte more than the largest datagram taken: a longer one fills its slot and is
        // recognised as oversized, where a slot of the exact size would truncate it unseen.
        int slot = b.maxDatagramSize + 1;
        config.setRecvByteBufAllocator(new FixedRecvByteBufAllocator(
            gro ? GRO_READ_SIZE : batched ? slot * b.receiveBatch : slot));
        config.setWriteBufferWaterMark(new WriteBufferWaterMark(b.sendQueueBytes / 2, b.sendQueueBytes));
        if (b.socketBufferSize > 0) {
            config.setReceiveBufferSize(b.socketBufferSize);
            config.setSendBufferSize(b.socketBufferSize);
        }
        if (ch instanceof EpollDatagramChannel epoll) {
            if (batched) {
                epoll.config().setMaxDatagramPayloadSize(slot); // recvmmsg into slots of this size
            }
            if (gro) {
                // Netty reads a coalesced datagram (and learns its segment size) only with recvmsg.
                epoll.config().setMaxDatagramPayloadSize(0);
                epoll.config().setUdpGro(true);
            }
            if (ep.ipv4) {
                setIntOption(ch, IP_MTU_DISCOVER, IP_PMTUDISC_DO, where);
            } else {
                setIntOption(ch, UDP_NO_CHECK6_RX, 1, where);
            }
        }
    }

    private static void setIntOption(DatagramChannel ch, ChannelOption<Integer> option, int value, String where) {
        try {
            if (ch.config().setOption(option, value) && ch.config().getOption(option) == value) {
                return;
            }
        } catch (RuntimeException e) {
            throw new UdpTransportException("cannot set " + option.name() + "=" + value + " on the socket for "
                + where + ": " + e.getMessage(), e);
        }
        throw new UdpTransportException("cannot set " + option.name() + "=" + value + " on the socket for " + where);
    }

    private static IoMode resolve(IoMode requested) {
        switch (requested) {
            case EPOLL -> {
                if (!Epoll.isAvailable()) {
                    throw new UdpTransportException("native epoll was requested but is unavailable: "
                        + Epoll.unavailabilityCause(), Epoll.unavailabilityCause());
                }
                return IoMode.EPOLL;
            }
            case NIO -> {
                LOG.info("UDP transport on NIO as configured: {}", NIO_LIMITS);
                return IoMode.NIO;
            }
            default -> {
                if (Epoll.isAvailable()) {
                    return IoMode.EPOLL;
                }
                LOG.warn("native epoll unavailable ({}); UDP transport falls back to NIO: {}",
                    Epoll.unavailabilityCause(), NIO_LIMITS);
                return IoMode.NIO;
            }
        }
    }

    private static final String NIO_LIMITS = "IP_MTU_DISCOVER and UDP_NO_CHECK6_RX cannot be set, so IPv4 packets"
        + " leave with a kernel-chosen IP ID that their ICRC does not match (Linux rxe drops them, jroce does not"
        + " see the ID) and the kernel drops rxe's zero-checksum IPv6 packets";

    /** Configuration of a {@link UdpTransport}; {@link #build()} opens and binds the sockets. */
    public static final class Builder {
        private final List<InetAddress> addresses = new ArrayList<>();
        private int port = ROCE_V2_PORT;
        /** A private transport (the loopback warm-up's): its binding is logged at debug level only. */
        boolean quiet;
        private IoMode ioMode = IoMode.AUTO;
        private Counters counters;
        private int maxDatagramSize = DEFAULT_MAX_DATAGRAM_SIZE;
        private int receiveBatch = DEFAULT_RECEIVE_BATCH;
        private int socketBufferSize;
        private int sendQueueBytes = DEFAULT_SEND_QUEUE_BYTES;
        private boolean gso = true;
        private boolean gro;
        private io.jroce.stack.transport.PollingHint pollingHint;
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
         * The UDP port of every socket: {@value #ROCE_V2_PORT} by default. With 0 the kernel chooses
         * one for the first address and the other addresses bind the same port.
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
         * Which Netty transport to use.
         *
         * @param ioMode EPOLL, NIO, or AUTO for epoll where available
         * @return this builder
         */
        public Builder ioMode(IoMode ioMode) {
            this.ioMode = Objects.requireNonNull(ioMode, "ioMode");
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
         * Largest datagram received whole; {@value #DEFAULT_MAX_DATAGRAM_SIZE} by default.
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
         * Datagrams per recvmmsg (epoll only); 1 reads one per system call.
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
         * UDP generic segmentation offload (UDP_SEGMENT, Linux 4.18+, epoll only; on by default):
         * consecutive datagrams of one size to one destination leave as one message that the
         * kernel cuts up, see {@link SendBatch}. Off, each datagram is its own sendmmsg entry.
         *
         * @param enabled whether to send with GSO
         * @return this builder
         */
        public Builder gso(boolean enabled) {
            this.gso = enabled;
            return this;
        }

        /**
         * UDP generic receive offload (UDP_GRO, Linux 5.0+, epoll only; off by default): the kernel
         * may hand over consecutive datagrams of one flow in one read, which Netty splits again.
         * It replaces recvmmsg batching by one recvmsg per (coalesced) read.
         *
         * @param enabled whether to receive with GRO
         * @return this builder
         */
        public Builder gro(boolean enabled) {
            this.gro = enabled;
            return this;
        }

        /**
         * Keeps the event loop awake (polling its sockets, yielding between polls) while {@code hint}
         * says an application thread polls for completions (epoll only); null: always Netty's default.
         *
         * @param hint the hint, or null for none
         * @return this builder
         */
        public Builder pollingHint(io.jroce.stack.transport.PollingHint hint) {
            this.pollingHint = hint;
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
         * Bytes written but not yet sent per socket beyond which {@link UdpTransport#send} returns false.
         *
         * @param bytes the limit
         * @return this builder
         * @throws IllegalArgumentException the limit is too small
         */
        public Builder sendQueueBytes(int bytes) {
            if (bytes < 2 * DEFAULT_MAX_DATAGRAM_SIZE) {
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

        /**
         * Opens, configures and binds one socket per local address.
         *
         * @throws UdpTransportException when a socket cannot be opened, configured or bound
         * @return the transport, the caller's to close
         * @throws IllegalStateException no local address was given
         */
        public UdpTransport build() {
            if (addresses.isEmpty()) {
                throw new IllegalStateException("no local address configured");
            }
            return new UdpTransport(this);
        }
    }
}
