package io.jroce.stack.udp;

import io.jroce.stack.transport.IpAddresses;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.icrc.Ipv4IdRecovery;
import io.jroce.stack.stats.Counter;
import io.jroce.stack.transport.RocePacketHandler;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One suite for every I/O mode (as Netty's AbstractDatagramTest does for its transports): two
 * transports on one loopback address, the other one's port, packets both ways.
 */
abstract class AbstractUdpTransportTest {
    /** A guard against hangs only; every wait ends as soon as the packet is there. */
    static final long TIMEOUT_S = 20;

    private final List<AutoCloseable> toClose = new ArrayList<>();

    abstract IoMode ioMode();

    void configure(UdpTransport.Builder builder) {
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
    }

    record Received(byte[] packet, byte[] src, int srcPort, byte[] dst) {
    }

    /** Collects what a transport delivers; the buffer and arrays are copied, as they are valid only during the call. */
    static final class Collector implements RocePacketHandler {
        final BlockingQueue<Received> queue = new LinkedBlockingQueue<>();
        volatile Consumer<Received> also = r -> { };

        @Override
        public void onPacket(DirectBuffer packet, int offset, int length, byte[] srcAddress, int srcPort,
                             byte[] dstAddress) {
            byte[] copy = new byte[length];
            packet.getBytes(offset, copy);
            Received r = new Received(copy, srcAddress.clone(), srcPort, dstAddress.clone());
            also.accept(r);
            queue.add(r);
        }

        Received take() throws InterruptedException {
            Received r = queue.poll(TIMEOUT_S, TimeUnit.SECONDS);
            assertNotNull(r, "no packet within " + TIMEOUT_S + " s");
            return r;
        }
    }

    /** A transport seen through one of its addresses. */
    static final class Peer {
        private final UdpTransport transport;
        private final Collector collector;
        private final byte[] address16;

        Peer(UdpTransport transport, Collector collector, byte[] address16) {
            this.transport = transport;
            this.collector = collector;
            this.address16 = address16;
        }

        UdpTransport transport() {
            return transport;
        }

        Collector collector() {
            return collector;
        }

        byte[] address16() {
            return address16;
        }

        int port() {
            return transport.port();
        }

        <T> T onLoop(Callable<T> task) throws Exception {
            return transport.eventLoop().submit(task).get(TIMEOUT_S, TimeUnit.SECONDS);
        }

        boolean send(byte[] packet, Peer to) throws Exception {
            return onLoop(() -> {
                boolean ok = transport.send(new UnsafeBuffer(packet), 0, packet.length, address16, to.address16(),
                    to.port());
                transport.flush();
                return ok;
            });
        }
    }

    Peer peer(String address) {
        return peer(address, 0);
    }

    Peer peer(String address, int port) {
        UdpTransport.Builder b = UdpTransport.builder().localAddress(address).port(port).ioMode(ioMode());
        configure(b);
        UdpTransport t = b.build();
        toClose.add(t);
        assertEquals(ioMode(), t.ioMode());
        Collector c = new Collector();
        t.start(c);
        return new Peer(t, c, IpAddresses.toBytes16(t.localAddresses().get(0).getAddress()));
    }

    static byte[] packet(Random rnd, int length) {
        byte[] p = new byte[length];
        rnd.nextBytes(p);
        return p;
    }

    static boolean isIpv4(String address) {
        return address.indexOf(':') < 0;
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void packetsGoBothWaysByteExact(String address) throws Exception {
        Peer a = peer(address);
        Peer b = peer(address);
        Random rnd = new Random(address.hashCode());
        int[] lengths = {12, 13, 15, 16, 100, 1024 + 28, 4096 + 28, UdpTransport.DEFAULT_MAX_DATAGRAM_SIZE - 4};
        for (int length : lengths) {
            for (Peer[] dir : new Peer[][] {{a, b}, {b, a}}) {
                byte[] p = packet(rnd, length);
                assertTrue(dir[0].send(p, dir[1]));
                Received r = dir[1].collector().take();
                assertArrayEquals(p, r.packet(), "length " + length);
                assertArrayEquals(dir[0].address16(), r.src());
                assertEquals(dir[0].port(), r.srcPort());
                assertArrayEquals(dir[1].address16(), r.dst());
            }
        }
        for (Peer p : new Peer[] {a, b}) {
            assertEquals(0, p.transport().counters().get(Counter.DROP_BAD_ICRC));
            assertEquals(0, p.transport().counters().get(Counter.DROP_TRUNCATED));
            assertEquals(0, p.transport().counters().get(Counter.DROP_TX_FAILED));
            assertEquals(0, p.transport().ipv4IdRecoveries(),
                "a Java sender computes the ICRC for ID 0 with DF, which is what the receiver checks first");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void aBurstArrivesWholeAndInOrder(String address) throws Exception {
        Peer a = peer(address);
        Peer b = peer(address);
        Random rnd = new Random(7);
        List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < 48; i++) {
            sent.add(packet(rnd, 12 + rnd.nextInt(1100)));
        }
        assertTrue(a.onLoop(() -> {
            boolean all = true;
            for (byte[] p : sent) {
                all &= a.transport().send(new UnsafeBuffer(p), 0, p.length, a.address16(), b.address16(), b.port());
            }
            a.transport().flush();
            return all;
        }));
        for (byte[] p : sent) {
            assertArrayEquals(p, b.collector().take().packet());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void corruptedAndTruncatedDatagramsAreCountedAndNeverDelivered(String address) throws Exception {
        Peer b = peer(address);
        InetAddress local = InetAddress.getByName(address);
        Random rnd = new Random(3);
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(local, 0))) {
            byte[] roce = packet(rnd, 200);
            byte[] valid = withIcrc(roce, local, s.getLocalPort(), b);
            byte[] corrupted = valid.clone();
            corrupted[40] ^= 0x10;
            if (isIpv4(address)) {
                // A given error either is or is not explained by some IP ID, whatever ID the kernel picks:
                // make sure this one is not (2^-15 of errors are).
                int icrc = IcrcCalculator.readIcrc(new UnsafeBuffer(corrupted), roce.length);
                assertEquals(Ipv4IdRecovery.NOT_FOUND, new Ipv4IdRecovery().recoverId(
                    IpAddresses.ipv4(b.address16()), IpAddresses.ipv4(b.address16()), s.getLocalPort(), b.port(),
                    new UnsafeBuffer(corrupted), 0, roce.length, icrc));
            }
            InetSocketAddress to = new InetSocketAddress(local, b.port());
            s.send(new DatagramPacket(corrupted, corrupted.length, to));
            s.send(new DatagramPacket(valid, 0, 15, to));
            s.send(new DatagramPacket(new byte[0], 0, to));
            s.send(new DatagramPacket(valid, valid.length, to));

            Received r = b.collector().take();
            assertArrayEquals(roce, r.packet(), "only the valid datagram is delivered");
            assertEquals(s.getLocalPort(), r.srcPort());
        }
        long[] counts = b.onLoop(() -> new long[] {
            b.transport().counters().get(Counter.DROP_BAD_ICRC),
            b.transport().counters().get(Counter.DROP_TRUNCATED)});
        assertEquals(1, counts[0], "DROP_BAD_ICRC");
        assertEquals(2, counts[1], "DROP_TRUNCATED");
        assertNull(b.collector().queue.poll());
    }

    /**
     * The attack: a datagram far longer than any RoCE packet whose first bytes are a valid packet
     * with its ICRC. Read into a slot of exactly the largest size it would be cut there and pass;
     * it must be dropped and counted instead, whatever the read path (recvmmsg, recvmsg, GRO).
     * A datagram of exactly the largest size still arrives.
     */
    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void aDatagramLongerThanTheLargestIsDroppedNotTruncated(String address) throws Exception {
        Peer b = peer(address);
        InetAddress local = InetAddress.getByName(address);
        Random rnd = new Random(11);
        int largest = UdpTransport.DEFAULT_MAX_DATAGRAM_SIZE;
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(local, 0))) {
            InetSocketAddress to = new InetSocketAddress(local, b.port());
            byte[] whole = withIcrc(packet(rnd, largest - 4), local, s.getLocalPort(), b);
            byte[] oversized = new byte[65_000];
            System.arraycopy(whole, 0, oversized, 0, whole.length);
            byte[] oneMore = java.util.Arrays.copyOf(whole, largest + 1);
            byte[] small = packet(rnd, 100);
            s.send(new DatagramPacket(oversized, oversized.length, to));
            s.send(new DatagramPacket(oneMore, oneMore.length, to));
            s.send(new DatagramPacket(whole, whole.length, to));
            s.send(new DatagramPacket(withIcrc(small, local, s.getLocalPort(), b), small.length + 4, to));
            assertArrayEquals(java.util.Arrays.copyOf(whole, largest - 4), b.collector().take().packet(),
                "a datagram of the largest size is taken");
            assertArrayEquals(small, b.collector().take().packet());
        }
        assertEquals(2, b.onLoop(() -> b.transport().counters().get(Counter.DROP_OVERSIZED)), "DROP_OVERSIZED");
        assertNull(b.collector().queue.poll(), "nothing cut from an oversized datagram is delivered");
    }

    /**
     * What rxe sends: an ICRC computed over the nonzero IP ID it puts in the header. The receiving
     * socket does not show the ID (whatever the kernel wrote, here its own choice), so only ID
     * recovery can accept these packets.
     */
    @Test
    void anIcrcValidOnlyForSomeNonzeroIdIsAcceptedThroughIdRecovery() throws Exception {
        Peer b = peer("127.0.0.1");
        InetAddress local = InetAddress.getByName("127.0.0.1");
        Random rnd = new Random(5);
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(local, 0))) {
            InetSocketAddress to = new InetSocketAddress(local, b.port());
            byte[] first = packet(rnd, 1052);
            byte[] second = packet(rnd, 28);
            byte[] third = packet(rnd, 500);
            byte[] d1 = withIcrcForId(first, s.getLocalPort(), b, 0x1234, IcrcCalculator.IPV4_FLAGS_DF);
            byte[] d2 = withIcrcForId(second, s.getLocalPort(), b, 0xBEEF, 0);
            byte[] d3 = withIcrcForId(third, s.getLocalPort(), b, 0x0001, IcrcCalculator.IPV4_FLAGS_DF);
            d3[30] ^= 0x01;
            int icrc3 = IcrcCalculator.readIcrc(new UnsafeBuffer(d3), third.length);
            assertEquals(Ipv4IdRecovery.NOT_FOUND, new Ipv4IdRecovery().recoverId(IpAddresses.ipv4(b.address16()),
                IpAddresses.ipv4(b.address16()), s.getLocalPort(), b.port(), new UnsafeBuffer(d3), 0, third.length, icrc3),
                "precondition: no ID explains this corruption");
            s.send(new DatagramPacket(d1, d1.length, to));
            s.send(new DatagramPacket(d3, d3.length, to));
            s.send(new DatagramPacket(d2, d2.length, to));
            assertArrayEquals(first, b.collector().take().packet());
            assertArrayEquals(second, b.collector().take().packet());
        }
        assertEquals(2, b.transport().ipv4IdRecoveries());
        assertEquals(1, b.transport().counters().get(Counter.DROP_BAD_ICRC));
        assertNull(b.collector().queue.poll());
    }

    static byte[] withIcrcForId(byte[] roce, int fromPort, Peer to, int ipId, int flagsFragment) {
        byte[] d = new byte[roce.length + 4];
        System.arraycopy(roce, 0, d, 0, roce.length);
        UnsafeBuffer b = new UnsafeBuffer(d);
        int ip = IpAddresses.ipv4(to.address16()); // sent from the same address
        IcrcCalculator.writeIcrc(b, roce.length, new IcrcCalculator().computeIpv4(ip, ip, ipId, flagsFragment,
            fromPort, to.port(), b, 0, roce.length));
        return d;
    }

    /** The datagram a peer sends to {@code to}: {@code roce} and its ICRC for ID 0 with DF (IPv4). */
    static byte[] withIcrc(byte[] roce, InetAddress from, int fromPort, Peer to) {
        byte[] d = new byte[roce.length + 4];
        System.arraycopy(roce, 0, d, 0, roce.length);
        UnsafeBuffer b = new UnsafeBuffer(d);
        IcrcCalculator calc = new IcrcCalculator();
        byte[] src16 = IpAddresses.toBytes16(from);
        int icrc = IpAddresses.isIpv4Mapped(src16)
            ? calc.computeIpv4(IpAddresses.ipv4(src16), IpAddresses.ipv4(to.address16()), 0, IcrcCalculator.IPV4_FLAGS_DF,
                fromPort, to.port(), b, 0, roce.length)
            : calc.computeIpv6(src16, to.address16(), fromPort, to.port(), b, 0, roce.length);
        IcrcCalculator.writeIcrc(b, roce.length, icrc);
        return d;
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void packetsSentWhileHandlingAReadBatchAreFlushedWithoutAFlushCall(String address) throws Exception {
        Peer a = peer(address);
        Peer b = peer(address);
        b.collector().also = r -> b.transport().send(new UnsafeBuffer(r.packet()), 0, r.packet().length, r.dst(),
            r.src(), r.srcPort()); // an echo, never flushed by hand
        byte[] p = packet(new Random(11), 64);
        assertTrue(a.send(p, b));
        assertArrayEquals(p, b.collector().take().packet());
        assertArrayEquals(p, a.collector().take().packet());
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void aThrowingHandlerIsCountedAndTheTransportCarriesOn(String address) throws Exception {
        Peer a = peer(address);
        Peer b = peer(address);
        b.collector().also = r -> {
            if (r.packet()[0] == 1) {
                throw new IllegalStateException("test: handler fails");
            }
        };
        byte[] bad = new byte[20];
        bad[0] = 1;
        byte[] good = new byte[20];
        assertTrue(a.send(bad, b));
        assertTrue(a.send(good, b));
        assertArrayEquals(good, b.collector().take().packet());
        assertEquals(1, b.transport().counters().get(Counter.DROP_INTERNAL_ERROR));
    }

    @Test
    void unroutableSendsAreRefusedAndCounted() throws Exception {
        Peer a = peer("127.0.0.1");
        Peer b = peer("127.0.0.1");
        byte[] p = new byte[20];
        byte[] v6 = IpAddresses.toBytes16(InetAddress.getByName("::1"));
        byte[] otherV4 = IpAddresses.toBytes16(InetAddress.getByName("127.0.0.2"));
        assertFalse(a.onLoop(() -> a.transport().send(new UnsafeBuffer(p), 0, 20, otherV4, b.address16(), b.port())));
        assertFalse(a.onLoop(() -> a.transport().send(new UnsafeBuffer(p), 0, 20, a.address16(), v6, b.port())));
        assertEquals(2, a.transport().counters().get(Counter.DROP_NO_ROUTE));
        assertFalse(a.onLoop(() -> a.transport().send(new UnsafeBuffer(p), 0, 11, a.address16(), b.address16(), b.port())));
        assertEquals(1, a.transport().counters().get(Counter.DROP_TX_FAILED));
        assertThrows(IllegalStateException.class,
            () -> a.transport().send(new UnsafeBuffer(p), 0, 20, a.address16(), b.address16(), b.port()));
        assertThrows(IllegalStateException.class, () -> a.transport().flush());
    }

    /**
     * A write the kernel refuses fails after send() returned: Linux will not route a packet from
     * 127.0.0.1 to a non-loopback address (EINVAL).
     */
    @Test
    void aWriteTheKernelRefusesIsCountedAsATxFailure() throws Exception {
        Peer a = peer("127.0.0.1");
        byte[] elsewhere = IpAddresses.toBytes16(InetAddress.getByName("192.0.2.1"));
        byte[] p = new byte[20];
        assertTrue(a.onLoop(() -> {
            boolean queued = a.transport().send(new UnsafeBuffer(p), 0, 20, a.address16(), elsewhere, 4791);
            a.transport().flush();
            return queued;
        }));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
        while (a.transport().counters().get(Counter.DROP_TX_FAILED) == 0 && System.nanoTime() < deadline) {
            a.onLoop(() -> null); // let the event loop run
        }
        assertEquals(1, a.transport().counters().get(Counter.DROP_TX_FAILED));
        assertEquals(0, a.transport().counters().get(Counter.DROP_INTERNAL_ERROR));
    }

    @Test
    void oneTransportOnTwoAddressesOfBothFamilies() throws Exception {
        UdpTransport.Builder builder = UdpTransport.builder().localAddress("127.0.0.1").localAddress("::1").port(0)
            .ioMode(ioMode());
        configure(builder);
        UdpTransport both = builder.build();
        toClose.add(both);
        Collector c = new Collector();
        both.start(c);
        List<InetSocketAddress> bound = both.localAddresses();
        assertEquals(2, bound.size());
        assertEquals(both.port(), bound.get(0).getPort());
        assertEquals(both.port(), bound.get(1).getPort());
        for (String address : new String[] {"127.0.0.1", "::1"}) {
            Peer self = new Peer(both, c, IpAddresses.toBytes16(InetAddress.getByName(address)));
            Peer other = peer(address);
            byte[] p = packet(new Random(address.length()), 300);
            assertTrue(other.send(p, self));
            Received r = c.take();
            assertArrayEquals(p, r.packet());
            assertArrayEquals(self.address16(), r.dst());
            assertArrayEquals(other.address16(), r.src());
            assertTrue(self.send(p, other));
            assertArrayEquals(p, other.collector().take().packet());
        }
    }

    @Test
    void aTakenPortIsAClearBindError() {
        Peer a = peer("127.0.0.1");
        UdpTransport.Builder b = UdpTransport.builder().localAddress("127.0.0.1").port(a.port()).ioMode(ioMode());
        UdpTransportException e = assertThrows(UdpTransportException.class, b::build);
        assertTrue(e.getMessage().startsWith("cannot bind a UDP socket to 127.0.0.1:" + a.port()), e.getMessage());
        assertTrue(e.getMessage().toLowerCase().contains("in use"), e.getMessage());
    }

    @Test
    void closeIsIdempotentAndEndsTheEventLoop() {
        Peer a = peer("::1");
        a.transport().close();
        a.transport().close();
        assertTrue(a.transport().eventLoop().isTerminated());
        assertThrows(IllegalStateException.class, () -> a.transport().start(a.collector()));
    }

    /** Linux: the interface of the IPv4 default route (/proc/net/route), or null. */
    static String defaultRouteInterface() {
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/net/route"))) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 1 && f[1].equals("00000000")) {
                    return f[0];
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    /**
     * An IPv4 address of an interface that is up, not loopback and multicast-capable (loopback has
     * no MULTICAST flag: group traffic does not flow there), or null when the host has none.
     */
    static String multicastCapableIpv4() throws java.net.SocketException {
        // The interface of the default route first: other interfaces may come and go (test networks).
        java.util.List<java.net.NetworkInterface> all = new java.util.ArrayList<>(
            java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces()));
        String defaultRoute = defaultRouteInterface();
        all.sort(java.util.Comparator.comparing(ni -> !ni.getName().equals(defaultRoute)));
        for (java.net.NetworkInterface ni : all) {
            if (!ni.isUp() || ni.isLoopback() || !ni.supportsMulticast() || !operstateUp(ni.getName())) {
                continue;
            }
            for (InetAddress a : java.util.Collections.list(ni.getInetAddresses())) {
                if (a instanceof java.net.Inet4Address) {
                    return a.getHostAddress();
                }
            }
        }
        return null;
    }

    /** Linux: an interface administratively up but without carrier (an empty bridge) passes no multicast. */
    private static boolean operstateUp(String name) {
        java.nio.file.Path state = java.nio.file.Path.of("/sys/class/net", name, "operstate");
        try {
            return !java.nio.file.Files.exists(state) || java.nio.file.Files.readString(state).trim().equals("up");
        } catch (java.io.IOException e) {
            return false;
        }
    }

    @Test
    void aJoinedGroupReceivesWhatIsSentToItUntilItIsLeft() throws Exception {
        String address = multicastCapableIpv4();
        // Under CI a missing prerequisite fails; elsewhere (a laptop offline) the test skips, saying why.
        if (address == null && "true".equalsIgnoreCase(System.getenv("CI"))) {
            org.junit.jupiter.api.Assertions.fail("CI=true: no multicast-capable IPv4 interface that is up with carrier");
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(address != null, "no multicast-capable IPv4 interface");
        Peer sender = peer(address);
        Peer member = peer(address);
        byte[] group = IpAddresses.toGidBytes("239.255.42.99");
        Peer toGroup = new Peer(member.transport(), member.collector(), group);
        member.transport().joinGroup(group);
        member.transport().joinGroup(group); // twice is once
        assertEquals(List.of(new InetSocketAddress(InetAddress.getByName("239.255.42.99"), member.port())),
            member.transport().groups());
        byte[] first = packet(new Random(11), 300);
        assertTrue(sender.send(first, toGroup));
        Received r = member.collector().take();
        assertArrayEquals(first, r.packet(), "the ICRC was checked for the group as destination and stripped");
        assertArrayEquals(group, r.dst(), "the group is the destination address");
        assertArrayEquals(sender.address16(), r.src());
        assertEquals(sender.port(), r.srcPort());

        member.transport().leaveGroup(group);
        assertEquals(List.of(), member.transport().groups());
        assertTrue(sender.send(packet(new Random(12), 300), toGroup));
        byte[] unicast = packet(new Random(13), 200);
        assertTrue(sender.send(unicast, member));
        assertArrayEquals(unicast, member.collector().take().packet(), "nothing from the group once it is left");
        assertEquals(0, member.transport().counters().get(Counter.DROP_BAD_ICRC));
    }
}
