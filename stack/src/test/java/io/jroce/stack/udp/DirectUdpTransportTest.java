package io.jroce.stack.udp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.icrc.Ipv4IdRecovery;
import io.jroce.stack.stats.Counter;
import io.jroce.stack.transport.IpAddresses;
import io.jroce.stack.transport.RocePacketHandler;
import io.jroce.stack.udp.AbstractUdpTransportTest.Collector;
import io.jroce.stack.udp.AbstractUdpTransportTest.Peer;
import io.jroce.stack.udp.AbstractUdpTransportTest.Received;
import io.netty.channel.epoll.Epoll;
import java.lang.management.ManagementFactory;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The direct transport on loopback: with itself, with {@link UdpTransport}, its receive checks,
 * GSO, {@link DirectUdpTransport#await}, multicast, and that a round trip allocates nothing on the
 * thread that drives it. Everything is driven from the test thread, as an application thread in the
 * invoker mode drives it.
 */
class DirectUdpTransportTest {
    /** setsockopt(SOL_SOCKET = 1, SO_NO_CHECK = 11): asm-generic/socket.h. */
    private static final int SOL_SOCKET = 1;
    private static final int SO_NO_CHECK = 11;
    /** A guard against hangs only; every wait ends as soon as the packet is there. */
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(20);

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @BeforeAll
    static void epoll() {
        assumeTrue(Epoll.isAvailable(), () -> "native epoll unavailable: " + Epoll.unavailabilityCause());
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
    }

    /** A direct transport seen through one of its addresses, driven by the test thread. */
    final class Direct {
        final DirectUdpTransport transport;
        final Collector collector = new Collector();
        final byte[] address16;

        Direct(DirectUdpTransport.Builder builder) {
            configure(builder);
            transport = builder.build();
            toClose.add(transport);
            transport.start(collector);
            address16 = IpAddresses.toBytes16(transport.localAddresses().get(0).getAddress());
        }

        int port() {
            return transport.port();
        }

        boolean send(byte[] packet, byte[] to16, int toPort) {
            boolean ok = transport.send(new UnsafeBuffer(packet), 0, packet.length, address16, to16, toPort);
            transport.flush();
            return ok;
        }

        boolean send(byte[] packet, Direct to) {
            return send(packet, to.address16, to.port());
        }

        /** Receives until a packet was delivered (busy, as an application thread polls). */
        Received take() {
            long deadline = System.nanoTime() + TIMEOUT_NS;
            while (collector.queue.isEmpty()) {
                transport.receive(8);
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("no packet within the guard time");
                }
            }
            return collector.queue.poll();
        }
    }

    /** A variant's settings, applied to every transport the test opens (none here). */
    void configure(DirectUdpTransport.Builder builder) {
    }

    Direct direct(String address) {
        return new Direct(DirectUdpTransport.builder().localAddress(address).port(0));
    }

    static byte[] packet(Random rnd, int length) {
        return AbstractUdpTransportTest.packet(rnd, length);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void twoDirectTransportsExchangePacketsByteExact(boolean internals) {
        DirectUdpTransport.Builder ba = DirectUdpTransport.builder().localAddress("127.0.0.1").port(0);
        DirectUdpTransport.Builder bb = DirectUdpTransport.builder().localAddress("127.0.0.2").port(0);
        if (!internals) {
            ba.publicCallsOnly();
            bb.publicCallsOnly();
        }
        Direct a = new Direct(ba);
        Direct b = new Direct(bb);
        assertEquals(internals, a.transport.allocationFree(), "the batches through EpollInternals, or the public calls");
        Random rnd = new Random(1);
        int[] lengths = {12, 13, 100, 1024 + 28, 4096 + 28, UdpTransport.DEFAULT_MAX_DATAGRAM_SIZE - 4};
        for (int length : lengths) {
            for (Direct[] dir : new Direct[][] {{a, b}, {b, a}}) {
                byte[] p = packet(rnd, length);
                assertTrue(dir[0].send(p, dir[1]));
                Received r = dir[1].take();
                assertArrayEquals(p, r.packet(), "length " + length);
                assertArrayEquals(dir[0].address16, r.src());
                assertEquals(dir[0].port(), r.srcPort());
                assertArrayEquals(dir[1].address16, r.dst());
            }
        }
        assertArrayEquals(IpAddresses.toGidBytes("127.0.0.2"), b.address16);
        for (Direct d : new Direct[] {a, b}) {
            assertEquals(0, d.transport.counters().get(Counter.DROP_BAD_ICRC));
            assertEquals(0, d.transport.counters().get(Counter.DROP_TRUNCATED));
            assertEquals(0, d.transport.counters().get(Counter.DROP_TX_FAILED));
            assertEquals(0, d.transport.ipv4IdRecoveries());
        }
    }

    /** Both transports compute the same ICRC for the same headers: each accepts the other's packets. */
    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void aDirectTransportAndAUdpTransportTalkBothWays(String address) throws Exception {
        Direct d = direct(address);
        UdpTransport u = UdpTransport.builder().localAddress(address).port(0).build();
        toClose.add(u);
        Collector uc = new Collector();
        u.start(uc);
        Peer p = new Peer(u, uc, IpAddresses.toBytes16(u.localAddresses().get(0).getAddress()));
        Random rnd = new Random(2);
        for (int length : new int[] {12, 300, 4096 + 28}) {
            byte[] toNetty = packet(rnd, length);
            assertTrue(d.send(toNetty, p.address16(), p.port()));
            Received r = uc.take();
            assertArrayEquals(toNetty, r.packet());
            assertArrayEquals(d.address16, r.src());
            assertEquals(d.port(), r.srcPort());

            byte[] toDirect = packet(rnd, length);
            assertTrue(p.onLoop(() -> {
                boolean ok = u.send(new UnsafeBuffer(toDirect), 0, toDirect.length, p.address16(), d.address16, d.port());
                u.flush();
                return ok;
            }));
            Received back = d.take();
            assertArrayEquals(toDirect, back.packet());
            assertArrayEquals(p.address16(), back.src());
            assertEquals(p.port(), back.srcPort());
            assertArrayEquals(d.address16, back.dst());
        }
        assertEquals(0, u.counters().get(Counter.DROP_BAD_ICRC));
        assertEquals(0, d.transport.counters().get(Counter.DROP_BAD_ICRC));
    }

    /** IPv6 on ::1, both on port 0 (one IPv6 loopback address only). */
    @Test
    void ipv6PacketsGoBothWays() {
        Direct a = direct("::1");
        Direct b = direct("::1");
        Random rnd = new Random(3);
        for (int length : new int[] {12, 1000, 4096 + 28}) {
            byte[] p = packet(rnd, length);
            assertTrue(a.send(p, b));
            Received r = b.take();
            assertArrayEquals(p, r.packet());
            assertArrayEquals(IpAddresses.toGidBytes("::1"), r.src());
            assertEquals(a.port(), r.srcPort());
            byte[] q = packet(rnd, length);
            assertTrue(b.send(q, a));
            assertArrayEquals(q, a.take().packet());
        }
    }

    /** The datagram a Java socket on {@code from}:{@code fromPort} sends: {@code roce} and its ICRC. */
    static byte[] withIcrc(byte[] roce, InetAddress from, int fromPort, Direct to) {
        byte[] d = Arrays.copyOf(roce, roce.length + IcrcCalculator.ICRC_LENGTH);
        UnsafeBuffer b = new UnsafeBuffer(d);
        IcrcCalculator calc = new IcrcCalculator();
        byte[] src16 = IpAddresses.toBytes16(from);
        int icrc = IpAddresses.isIpv4Mapped(src16)
            ? calc.computeIpv4(IpAddresses.ipv4(src16), IpAddresses.ipv4(to.address16), 0, IcrcCalculator.IPV4_FLAGS_DF,
                fromPort, to.port(), b, 0, roce.length)
            : calc.computeIpv6(src16, to.address16, fromPort, to.port(), b, 0, roce.length);
        IcrcCalculator.writeIcrc(b, roce.length, icrc);
        return d;
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void corruptTruncatedAndOversizedDatagramsAreDroppedAndCounted(String address) throws Exception {
        Direct b = direct(address);
        InetAddress local = InetAddress.getByName(address);
        Random rnd = new Random(4);
        int largest = UdpTransport.DEFAULT_MAX_DATAGRAM_SIZE;
        byte[] roce = packet(rnd, 200);
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(local, 0))) {
            byte[] valid = withIcrc(roce, local, s.getLocalPort(), b);
            byte[] corrupted = valid.clone();
            corrupted[40] ^= 0x10;
            if (IpAddresses.isIpv4Mapped(b.address16)) {
                int icrc = IcrcCalculator.readIcrc(new UnsafeBuffer(corrupted), roce.length);
                int ip = IpAddresses.ipv4(b.address16);
                assertEquals(Ipv4IdRecovery.NOT_FOUND, new Ipv4IdRecovery().recoverId(ip, ip, s.getLocalPort(), b.port(),
                    new UnsafeBuffer(corrupted), 0, roce.length, icrc), "precondition: no IP ID explains the corruption");
            }
            byte[] whole = withIcrc(packet(rnd, largest - 4), local, s.getLocalPort(), b);
            byte[] oversized = Arrays.copyOf(whole, 65_000);
            byte[] oneMore = Arrays.copyOf(whole, largest + 1);
            InetSocketAddress to = new InetSocketAddress(local, b.port());
            s.send(new DatagramPacket(corrupted, corrupted.length, to));
            s.send(new DatagramPacket(valid, 0, 15, to));
            s.send(new DatagramPacket(new byte[0], 0, to));
            s.send(new DatagramPacket(oversized, oversized.length, to));
            s.send(new DatagramPacket(oneMore, oneMore.length, to));
            s.send(new DatagramPacket(whole, whole.length, to));
            s.send(new DatagramPacket(valid, valid.length, to));

            assertArrayEquals(Arrays.copyOf(whole, largest - 4), b.take().packet(), "a datagram of the largest size is taken");
            Received r = b.take();
            assertArrayEquals(roce, r.packet());
            assertEquals(s.getLocalPort(), r.srcPort());
        }
        assertEquals(1, b.transport.counters().get(Counter.DROP_BAD_ICRC));
        assertEquals(2, b.transport.counters().get(Counter.DROP_TRUNCATED));
        assertEquals(2, b.transport.counters().get(Counter.DROP_OVERSIZED));
        assertEquals(0, b.transport.receive(8));
        assertNull(b.collector.queue.poll(), "only the valid datagrams were delivered");
    }

    /**
     * 40 datagrams of one size and a shorter one to one destination leave as one GSO message (the
     * kernel gives its segments IPv4 IDs 0, 1, 2, ..., which the ICRC covers: the receiver accepts
     * segments 1.. only through ID recovery, which shows they were one message) and arrive as 41
     * packets in order.
     */
    @Test
    void aGsoRunArrivesAsSeparatePacketsInOrder() {
        Direct a = direct("127.0.0.1");
        Direct b = direct("127.0.0.1");
        assumeTrue(a.transport.gso(), "UDP GSO unsupported by this kernel");
        Random rnd = new Random(5);
        List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            sent.add(packet(rnd, 1000));
        }
        sent.add(packet(rnd, 300));
        for (byte[] p : sent) {
            assertTrue(a.transport.send(new UnsafeBuffer(p), 0, p.length, a.address16, b.address16, b.port()));
        }
        a.transport.flush();
        for (byte[] p : sent) {
            assertArrayEquals(p, b.take().packet());
        }
        assertEquals(40, b.transport.ipv4IdRecoveries(), "segments 1..40 of one GSO message carry IDs 1..40");
        assertEquals(0, b.transport.counters().get(Counter.DROP_BAD_ICRC));
    }

    /** Sends {@code packets} from a to b in one flush and checks each arrives as sent. */
    private static void flushAndTake(Direct a, Direct b, List<byte[]> packets, String what) {
        for (byte[] p : packets) {
            assertTrue(a.transport.send(new UnsafeBuffer(p), 0, p.length, a.address16, b.address16, b.port()));
        }
        a.transport.flush();
        for (byte[] p : packets) {
            assertArrayEquals(p, b.take().packet(), what);
        }
    }

    /** Skips the test where the kernel takes no UDP GSO, or is not one the UDP_SEGMENT option is set on. */
    private static void assumeSegmentOption(Direct a) {
        assumeTrue(a.transport.gso(), "UDP GSO unsupported by this kernel");
        assumeTrue(DatagramSendQueue.segmentOptionSafe(System.getProperty("os.version")), "kernel without the option");
    }

    /** Two flushes of a ping-pong's answer (76 + 4 bytes) and ACK (16 + 4): the option is then 80. */
    private static void settleAt80(Direct a, Direct b, Random rnd) {
        for (int flush = 0; flush < 2; flush++) {
            flushAndTake(a, b, List.of(packet(rnd, 76), packet(rnd, 16)), "answer and ACK");
        }
        assertEquals(80, a.transport.segmentOption(), "the answer's datagram size");
    }

    /**
     * Two flushes in a row that start with runs of one size set the socket's UDP_SEGMENT option to
     * it; the next such run leaves without a control message (alone: through sendto) and still
     * arrives cut where it was: as GSO segments (IPv4 IDs 1.. through ID recovery), byte-exact.
     */
    @Test
    void runsOfOneSizeSetTheSegmentOptionAndStillArriveAsSent() {
        Direct a = direct("127.0.0.1");
        Direct b = direct("127.0.0.1");
        assumeSegmentOption(a);
        Random rnd = new Random(31);
        for (int flush = 1; flush <= 3; flush++) {
            flushAndTake(a, b, List.of(packet(rnd, 1000), packet(rnd, 1000), packet(rnd, 1000), packet(rnd, 300)),
                "flush " + flush);
            assertEquals(flush == 1 ? 0 : 1000 + IcrcCalculator.ICRC_LENGTH, a.transport.segmentOption(),
                "the option after flush " + flush);
        }
        assertEquals(9, b.transport.ipv4IdRecoveries(), "segments 1..3 of each run carry IDs 1..3: one GSO message each");
        assertEquals(0, b.transport.counters().get(Counter.DROP_BAD_ICRC));
        assertEquals(0, a.transport.counters().get(Counter.DROP_TX_FAILED));
    }

    /**
     * Under a UDP_SEGMENT option of 80 bytes (a ping-pong's answer and ACK), the kernel would cut
     * any longer datagram into 80-byte pieces: a longer datagram sent alone, a run of another size and
     * a longer datagram among other messages each carry their own size and arrive whole, as sent.
     */
    @Test
    void underTheSegmentOptionLongerDatagramsAndOtherRunsArriveUncut() {
        Direct a = direct("127.0.0.1");
        Direct b = direct("127.0.0.1");
        assumeSegmentOption(a);
        Random rnd = new Random(32);
        settleAt80(a, b, rnd);

        byte[] lone = packet(rnd, 1000);
        assertTrue(a.send(lone, b));
        assertArrayEquals(lone, b.take().packet(), "a longer datagram alone, not cut at 80");

        List<byte[]> other = List.of(packet(rnd, 500), packet(rnd, 500), packet(rnd, 100));
        byte[] longer = packet(rnd, 700);
        byte[] shorter = packet(rnd, 40);
        List<byte[]> mixed = new ArrayList<>(other);
        mixed.add(longer);
        mixed.add(shorter);
        // Another destination (another port) between them: the next datagram to b starts a new message.
        byte[] elsewhere = IpAddresses.toGidBytes("127.0.0.1");
        for (byte[] p : other) {
            assertTrue(a.transport.send(new UnsafeBuffer(p), 0, p.length, a.address16, b.address16, b.port()));
        }
        assertTrue(a.transport.send(new UnsafeBuffer(longer), 0, longer.length, a.address16, elsewhere, b.port() + 1));
        assertTrue(a.transport.send(new UnsafeBuffer(longer), 0, longer.length, a.address16, b.address16, b.port()));
        assertTrue(a.transport.send(new UnsafeBuffer(shorter), 0, shorter.length, a.address16, elsewhere, b.port() + 1));
        assertTrue(a.transport.send(new UnsafeBuffer(shorter), 0, shorter.length, a.address16, b.address16, b.port()));
        a.transport.flush();
        for (byte[] p : mixed) {
            assertArrayEquals(p, b.take().packet(), "in one sendmmsg with the option at 80");
        }
        assertEquals(0, b.transport.counters().get(Counter.DROP_BAD_ICRC));
        assertEquals(0, b.transport.counters().get(Counter.DROP_TRUNCATED));
    }

    /**
     * A datagram the kernel refuses under the UDP_SEGMENT option (here: SO_NO_CHECK, which the GSO
     * checks refuse with EINVAL, as a path through IPsec or without checksum offload may be refused)
     * is sent again without the option, which is off for good: nothing is lost, nothing counted.
     */
    @Test
    void aDatagramRefusedUnderTheSegmentOptionIsSentAgainWithoutIt() throws Exception {
        Direct a = direct("127.0.0.1");
        Direct b = direct("127.0.0.1");
        assumeSegmentOption(a);
        Random rnd = new Random(33);
        settleAt80(a, b, rnd);
        a.transport.firstSocket().setIntOpt(SOL_SOCKET, SO_NO_CHECK, 1);
        byte[] ack = packet(rnd, 16);
        assertTrue(a.send(ack, b));
        assertArrayEquals(ack, b.take().packet(), "sent again without the option");
        assertEquals(0, a.transport.segmentOption(), "the option is off");
        assertEquals(0, a.transport.counters().get(Counter.DROP_TX_FAILED));
        byte[] next = packet(rnd, 16);
        assertTrue(a.send(next, b));
        assertArrayEquals(next, b.take().packet());
        assertEquals(0, a.transport.segmentOption(), "and stays off");
    }

    /** Which kernels may carry the UDP_SEGMENT option: those that refuse what its checks fail, with an error. */
    @Test
    void theSegmentOptionIsForKernelsThatRefuseWithAnError() {
        assertTrue(DatagramSendQueue.segmentOptionSafe("6.18.44"));
        assertTrue(DatagramSendQueue.segmentOptionSafe("6.1.0-28-amd64"));
        assertTrue(DatagramSendQueue.segmentOptionSafe("5.4.0-150-generic"));
        assertTrue(DatagramSendQueue.segmentOptionSafe("6.12.1"));
        assertTrue(DatagramSendQueue.segmentOptionSafe("10.0"));
        assertFalse(DatagramSendQueue.segmentOptionSafe("6.11.5"), "6.11: a partial checksum without an error");
        assertFalse(DatagramSendQueue.segmentOptionSafe("5.3.18"), "before 5.4: one-segment GSO packets dropped");
        assertFalse(DatagramSendQueue.segmentOptionSafe("4.19.0"));
        assertFalse(DatagramSendQueue.segmentOptionSafe(""));
        assertFalse(DatagramSendQueue.segmentOptionSafe("unknown"));
    }

    @Test
    void withoutGsoEveryDatagramCarriesIpId0() {
        Direct a = new Direct(DirectUdpTransport.builder().localAddress("127.0.0.1").port(0).gso(false));
        Direct b = direct("127.0.0.1");
        assertFalse(a.transport.gso());
        Random rnd = new Random(6);
        List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            sent.add(packet(rnd, 500));
        }
        for (byte[] p : sent) {
            assertTrue(a.transport.send(new UnsafeBuffer(p), 0, p.length, a.address16, b.address16, b.port()));
        }
        a.transport.flush();
        for (byte[] p : sent) {
            assertArrayEquals(p, b.take().packet());
        }
        assertEquals(0, b.transport.ipv4IdRecoveries());
    }

    /** A send queue that fills up between flushes sends what it holds and goes on: nothing refused, order kept. */
    @Test
    void aFullSendQueueIsSentInlineAndTakesMore() {
        Direct a = new Direct(DirectUdpTransport.builder().localAddress("127.0.0.1").port(0).gso(false)
            .sendQueueBytes(2 * UdpTransport.DEFAULT_MAX_DATAGRAM_SIZE));
        Direct b = direct("127.0.0.1");
        Random rnd = new Random(18);
        List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            byte[] p = packet(rnd, 1000);
            sent.add(p);
            assertTrue(a.transport.send(new UnsafeBuffer(p), 0, p.length, a.address16, b.address16, b.port()),
                "packet " + i + " of 50 through a queue of 8 datagrams");
        }
        a.transport.flush();
        for (byte[] p : sent) {
            assertArrayEquals(p, b.take().packet());
        }
        assertEquals(0, a.transport.counters().get(Counter.DROP_TX_FAILED));
    }

    /** More messages than one sendmmsg takes (1,024) between flushes: the queue sends them inline, in order. */
    @Test
    void moreMessagesThanOneSendmmsgTakesAreSentInOrder() {
        Direct a = new Direct(DirectUdpTransport.builder().localAddress("127.0.0.1").port(0).gso(false));
        Direct b = direct("127.0.0.1");
        UnsafeBuffer p = new UnsafeBuffer(new byte[16]);
        int n = DatagramSendQueue.MAX_MESSAGES + 100;
        for (int i = 0; i < n; i++) {
            p.putInt(0, i);
            assertTrue(a.transport.send(p, 0, 16, a.address16, b.address16, b.port()), "packet " + i);
        }
        a.transport.flush();
        assertEquals(0, a.transport.counters().get(Counter.DROP_TX_FAILED));
        // The receiving socket's buffer may overflow (they were all sent before any was read): what
        // arrived arrived in order.
        int last = -1;
        int received = 0;
        while (b.transport.receive(64) > 0 || !b.collector.queue.isEmpty()) {
            Received r;
            while ((r = b.collector.queue.poll()) != null) {
                int seq = new UnsafeBuffer(r.packet()).getInt(0);
                assertTrue(seq > last, seq + " after " + last);
                last = seq;
                received++;
            }
        }
        assertTrue(received > 0);
    }

    @Test
    void receiveWithNothingReadyReturnsZeroAtOnce() {
        Direct a = direct("127.0.0.1");
        assertEquals(0, a.transport.receive(8));
        assertEquals(0, a.transport.receive(1));
    }

    @Test
    void beforeStartNothingIsReadAndStartTwiceFails() {
        DirectUdpTransport t = DirectUdpTransport.builder().localAddress("127.0.0.1").port(0).build();
        toClose.add(t);
        Direct a = direct("127.0.0.1");
        byte[] to16 = IpAddresses.toGidBytes("127.0.0.1");
        assertTrue(a.send(packet(new Random(7), 64), to16, t.port()));
        assertEquals(0, t.receive(8), "not started: the datagram waits in the socket");
        Collector c = new Collector();
        t.start(c);
        assertThrows(IllegalStateException.class, () -> t.start(c));
        assertEquals(1, t.receive(8));
        assertEquals(1, c.queue.size());
    }

    @Test
    void awaitReturnsOnADatagram() throws Exception {
        Direct a = direct("127.0.0.1");
        Direct b = direct("127.0.0.1");
        Thread waiter = new Thread(() -> b.transport.await(Long.MAX_VALUE, true));
        waiter.start();
        assertTrue(a.send(packet(new Random(8), 64), b));
        waiter.join(TimeUnit.NANOSECONDS.toMillis(TIMEOUT_NS));
        assertFalse(waiter.isAlive(), "await returned on the datagram");
        assertEquals(1, b.transport.receive(8), "await read nothing");

        assertTrue(a.send(packet(new Random(9), 64), b));
        b.transport.await(Long.MAX_VALUE, true); // ready before the call: returns at once (level-triggered)
        b.transport.await(Long.MAX_VALUE, true); // still unread: still ready
        assertEquals(1, b.transport.receive(8));
    }

    @Test
    void awaitReturnsOnAWakeUpSentBeforeOrDuringIt() throws Exception {
        Direct a = direct("127.0.0.1");
        a.transport.wakeUp();
        a.transport.await(Long.MAX_VALUE, true); // the wake-up came before: returns at once
        a.transport.wakeUp();
        a.transport.await(Long.MAX_VALUE, false);

        Thread waiter = new Thread(() -> a.transport.await(Long.MAX_VALUE, false));
        waiter.start();
        a.transport.wakeUp();
        waiter.join(TimeUnit.NANOSECONDS.toMillis(TIMEOUT_NS));
        assertFalse(waiter.isAlive(), "await returned on the wake-up");
    }

    /** Not watching the sockets, await ignores a ready datagram and ends on its wake-up. */
    @Test
    void awaitWithoutSocketsIgnoresDatagrams() throws Exception {
        Direct a = direct("127.0.0.1");
        Direct b = direct("127.0.0.1");
        assertTrue(a.send(packet(new Random(10), 64), b));
        Thread waiter = new Thread(() -> b.transport.await(Long.MAX_VALUE, false));
        waiter.start();
        waiter.join(200);
        assertTrue(waiter.isAlive(), "a ready datagram does not end an await that does not watch the sockets");
        b.transport.wakeUp();
        waiter.join(TimeUnit.NANOSECONDS.toMillis(TIMEOUT_NS));
        assertFalse(waiter.isAlive());
        assertEquals(1, b.transport.receive(8));
    }

    @Test
    void awaitReturnsOnItsTimeout() {
        Direct a = direct("127.0.0.1");
        a.transport.await(200_000, true); // 200 us: below a millisecond, through the timerfd
        a.transport.await(2_000_000, false);
        a.transport.await(0, true);
        a.transport.await(-1, false);
        assertEquals(0, a.transport.receive(8));
    }

    @Test
    void unroutableAndImpossibleSendsAreRefusedAndCounted() {
        Direct a = direct("127.0.0.1");
        byte[] p = packet(new Random(11), 64);
        UnsafeBuffer buf = new UnsafeBuffer(p);
        assertFalse(a.transport.send(buf, 0, p.length, IpAddresses.toGidBytes("127.0.0.9"), a.address16, a.port()),
            "not our address");
        assertFalse(a.transport.send(buf, 0, p.length, a.address16, IpAddresses.toGidBytes("::1"), a.port()),
            "another address family");
        assertEquals(2, a.transport.counters().get(Counter.DROP_NO_ROUTE));
        assertFalse(a.transport.send(buf, 0, 11, a.address16, a.address16, a.port()), "shorter than a BTH");
        assertEquals(1, a.transport.counters().get(Counter.DROP_TX_FAILED));
    }

    /**
     * A message the kernel refuses (Linux will not route from 127.0.0.1 to a non-loopback address:
     * EINVAL) is dropped and counted; the messages behind it in the same sendmmsg still leave.
     */
    @Test
    void aMessageTheKernelRefusesIsCountedAndTheRestLeaves() throws Exception {
        Direct a = direct("127.0.0.1");
        Direct b = direct("127.0.0.1");
        byte[] elsewhere = IpAddresses.toBytes16(InetAddress.getByName("192.0.2.1"));
        byte[] p = packet(new Random(19), 20);
        byte[] q = packet(new Random(20), 300);
        assertTrue(a.transport.send(new UnsafeBuffer(p), 0, p.length, a.address16, elsewhere, 4791));
        assertTrue(a.transport.send(new UnsafeBuffer(q), 0, q.length, a.address16, b.address16, b.port()));
        a.transport.flush();
        assertEquals(1, a.transport.counters().get(Counter.DROP_TX_FAILED));
        assertArrayEquals(q, b.take().packet());
        assertEquals(0, a.transport.counters().get(Counter.DROP_INTERNAL_ERROR));
    }

    @Test
    void portZeroPicksOnePortForEveryAddress() {
        DirectUdpTransport t = DirectUdpTransport.builder().localAddress("127.0.0.1").localAddress("::1").port(0).build();
        toClose.add(t);
        assertEquals(2, t.localAddresses().size());
        assertEquals(t.port(), t.localAddresses().get(0).getPort());
        assertEquals(t.port(), t.localAddresses().get(1).getPort());
    }

    @Test
    void aTakenPortIsAClearBindError() {
        Direct a = direct("127.0.0.1");
        UdpTransportException e = assertThrows(UdpTransportException.class,
            () -> DirectUdpTransport.builder().localAddress("127.0.0.1").port(a.port()).build());
        assertTrue(e.getMessage().startsWith("cannot bind a UDP socket to 127.0.0.1:" + a.port()), e.getMessage());
        assertTrue(e.getMessage().toLowerCase().contains("in use"), e.getMessage());
    }

    @Test
    void aThrowingHandlerIsCountedAndTheTransportCarriesOn() {
        Direct a = direct("127.0.0.1");
        Direct b = direct("127.0.0.1");
        b.collector.also = r -> {
            if (r.packet().length == 13) {
                throw new IllegalStateException("handler bug");
            }
        };
        assertTrue(a.send(packet(new Random(12), 13), b));
        assertTrue(a.send(packet(new Random(13), 14), b));
        long deadline = System.nanoTime() + TIMEOUT_NS;
        while (b.collector.queue.size() < 1 || b.transport.counters().get(Counter.DROP_INTERNAL_ERROR) < 1) {
            b.transport.receive(8);
            assertTrue(System.nanoTime() - deadline < 0, "guard time");
        }
        assertEquals(14, b.collector.queue.poll().packet().length);
        assertEquals(1, b.transport.counters().get(Counter.DROP_INTERNAL_ERROR));
    }

    /**
     * Packets the handler sends while {@code receive} runs wait for the caller's flush, so that an
     * answer the application posts right after leaves in the same system call (an ACK with the
     * next SEND); nothing of them is on the wire before.
     */
    @Test
    void packetsSentFromTheHandlerWaitForTheFlush() {
        Direct a = direct("127.0.0.1");
        Direct b = direct("127.0.0.1");
        b.collector.also = r -> b.transport.send(new UnsafeBuffer(r.packet()), 0, r.packet().length, b.address16,
            r.src(), r.srcPort());
        byte[] p = packet(new Random(14), 100);
        assertTrue(a.send(p, b));
        b.take();
        assertEquals(0, a.transport.receive(8), "the echo is queued, not sent, until b flushes");
        b.transport.flush();
        assertArrayEquals(p, a.take().packet(), "the echo left with the flush");
    }

    /**
     * The invoker mode's promise: after a warm-up, send + flush + receive round trips allocate
     * nothing on the thread that runs them. The same measurement of the fallback to Netty's public
     * calls sees their allocations, so it can fail.
     */
    @Test
    void roundTripsAllocateNothingOnTheDrivingThread() {
        assumeTrue(EpollInternals.DATAGRAMS_AVAILABLE, "the batches through EpollInternals are unavailable");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
            "per-thread allocation counting unavailable");
        RoundTrips batched = roundTrips(false);
        assertTrue(batched.a.allocationFree());
        batched.run(20_000); // warm-up: class loading, method handle linkage, JIT
        assertEquals(0, allocatedBy(threads, batched, 20_000), "bytes allocated by 20,000 round trips");
        assertEquals(40_000, batched.atB.packets);
        assertEquals(40_000, batched.atA.packets);
        assertEquals(0, batched.b.counters().get(Counter.DROP_BAD_ICRC));

        RoundTrips publicCalls = roundTrips(true);
        assertFalse(publicCalls.a.allocationFree());
        publicCalls.run(1_000);
        assertTrue(allocatedBy(threads, publicCalls, 1_000) > 0, "the measurement sees the public calls' allocations");
    }

    private RoundTrips roundTrips(boolean publicCallsOnly) {
        DirectUdpTransport.Builder ba = DirectUdpTransport.builder().localAddress("127.0.0.1").port(0);
        DirectUdpTransport.Builder bb = DirectUdpTransport.builder().localAddress("127.0.0.1").port(0);
        if (publicCallsOnly) {
            ba.publicCallsOnly();
            bb.publicCallsOnly();
        }
        DirectUdpTransport a = ba.build();
        DirectUdpTransport b = bb.build();
        toClose.add(a);
        toClose.add(b);
        CountingHandler atA = new CountingHandler();
        CountingHandler atB = new CountingHandler();
        a.start(atA);
        b.start(atB);
        return new RoundTrips(a, b, atA, atB, new UnsafeBuffer(new byte[64]), IpAddresses.toGidBytes("127.0.0.1"));
    }

    /** Bytes the current thread allocated in {@code n} round trips, less what asking for the figure costs. */
    private static long allocatedBy(com.sun.management.ThreadMXBean threads, RoundTrips trips, int n) {
        long before = threads.getCurrentThreadAllocatedBytes();
        trips.run(n);
        long after = threads.getCurrentThreadAllocatedBytes();
        long asking = threads.getCurrentThreadAllocatedBytes() - after;
        return after - before - asking;
    }

    /** A ping from a to b and the pong back, each a send, a flush and receives until it arrived. */
    private static final class RoundTrips {
        private final DirectUdpTransport a;
        private final DirectUdpTransport b;
        private final CountingHandler atA;
        private final CountingHandler atB;
        private final UnsafeBuffer packet;
        private final byte[] local;

        RoundTrips(DirectUdpTransport a, DirectUdpTransport b, CountingHandler atA, CountingHandler atB,
                   UnsafeBuffer packet, byte[] local) {
            this.a = a;
            this.b = b;
            this.atA = atA;
            this.atB = atB;
            this.packet = packet;
            this.local = local;
        }

        void run(int n) {
            for (int i = 0; i < n; i++) {
                packet.putInt(0, i);
                one(a, b, atB);
                one(b, a, atA);
            }
        }

        private void one(DirectUdpTransport from, DirectUdpTransport to, CountingHandler at) {
            long expected = at.packets + 1;
            if (!from.send(packet, 0, 64, local, local, to.port())) {
                throw new AssertionError("send refused");
            }
            from.flush();
            long spins = 0;
            while (at.packets < expected) {
                to.receive(8);
                if (++spins > 100_000_000L) {
                    throw new AssertionError("the packet never arrived");
                }
            }
            if (at.lastFirstInt != packet.getInt(0)) {
                throw new AssertionError("wrong packet: " + at.lastFirstInt);
            }
        }
    }

    /** Counts packets and keeps the first int of the last one; allocates nothing. */
    private static final class CountingHandler implements RocePacketHandler {
        long packets;
        int lastFirstInt;

        @Override
        public void onPacket(DirectBuffer p, int offset, int length, byte[] srcAddress, int srcPort, byte[] dstAddress) {
            packets++;
            lastFirstInt = p.getInt(offset);
        }
    }

    @Test
    void aJoinedGroupIsReadAndWatchedUntilItIsLeft() throws Exception {
        String address = AbstractUdpTransportTest.multicastCapableIpv4();
        if (address == null && "true".equalsIgnoreCase(System.getenv("CI"))) {
            org.junit.jupiter.api.Assertions.fail("CI=true: no multicast-capable IPv4 interface that is up with carrier");
        }
        assumeTrue(address != null, "no multicast-capable IPv4 interface that is up with carrier (loopback has no"
            + " MULTICAST flag: group traffic does not flow there)");
        Direct sender = direct(address);
        Direct member = direct(address);
        byte[] group = IpAddresses.toGidBytes("239.255.42.98");
        member.transport.joinGroup(group);
        member.transport.joinGroup(group); // twice is once
        assertEquals(List.of(new InetSocketAddress(InetAddress.getByName("239.255.42.98"), member.port())),
            member.transport.groups());
        byte[] first = packet(new Random(15), 300);
        assertTrue(sender.send(first, group, member.port()));
        member.transport.await(Long.MAX_VALUE, true); // the group's socket is watched
        Received r = member.take();
        assertArrayEquals(first, r.packet(), "the ICRC was checked for the group as destination and stripped");
        assertArrayEquals(group, r.dst(), "the group is the destination address");
        assertArrayEquals(sender.address16, r.src());
        assertEquals(sender.port(), r.srcPort());

        member.transport.leaveGroup(group);
        assertEquals(List.of(), member.transport.groups());
        assertTrue(sender.send(packet(new Random(16), 300), group, member.port()));
        byte[] unicast = packet(new Random(17), 200);
        assertTrue(sender.send(unicast, member));
        assertArrayEquals(unicast, member.take().packet(), "nothing from the group once it is left");
        assertEquals(0, member.transport.counters().get(Counter.DROP_BAD_ICRC));
    }

    @Test
    void closeIsIdempotent() {
        DirectUdpTransport t = DirectUdpTransport.builder().localAddress("127.0.0.1").port(0).build();
        t.close();
        t.close();
        t.wakeUp(); // ignored once closed
        assertEquals(0, t.receive(8));
    }
    /**
     * A handler that closes the transport (an application closing its device from a callback that
     * runs as the device's owner) ends the read: no system call reaches the closed descriptors,
     * whose numbers the kernel may already have given to another file. Sends after the close are
     * refused and counted, as {@link UdpTransport}'s on a closed channel, and an await returns.
     */
    @Test
    void afterACloseFromTheHandlerNothingTouchesTheSockets() {
        Direct a = new Direct(DirectUdpTransport.builder().localAddress("127.0.0.1").port(0).receiveBatch(1));
        Direct b = direct("127.0.0.1");
        a.collector.also = r -> a.transport.close();
        assertTrue(b.send(packet(new Random(21), 64), a));
        a.transport.await(Long.MAX_VALUE, true);
        assertEquals(1, a.transport.receive(8), "one datagram read, then the batch loop stops");
        assertEquals(1, a.collector.queue.size());
        assertEquals(0, a.transport.counters().get(Counter.DROP_INTERNAL_ERROR), "no read on a closed socket");

        byte[] p = packet(new Random(22), 64);
        assertFalse(a.transport.send(new UnsafeBuffer(p), 0, p.length, a.address16, b.address16, b.port()));
        assertEquals(1, a.transport.counters().get(Counter.DROP_TX_FAILED));
        a.transport.flush();
        a.transport.await(Long.MAX_VALUE, true); // returns at once: nothing to wait on any more
        assertEquals(0, a.transport.receive(8));
        assertEquals(0, a.transport.counters().get(Counter.DROP_INTERNAL_ERROR));
    }

    /** Datagrams queued when the transport closes are dropped and counted, never sent on a closed socket. */
    @Test
    void aSendQueuedAtCloseIsCountedNotSent() {
        Direct a = direct("127.0.0.1");
        Direct b = direct("127.0.0.1");
        byte[] p = packet(new Random(23), 64);
        assertTrue(a.transport.send(new UnsafeBuffer(p), 0, p.length, a.address16, b.address16, b.port()));
        a.transport.close();
        a.transport.flush();
        assertEquals(1, a.transport.counters().get(Counter.DROP_TX_FAILED), "the queued datagram, dropped");
    }
}
