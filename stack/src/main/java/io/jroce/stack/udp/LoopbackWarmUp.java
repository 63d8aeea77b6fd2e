package io.jroce.stack.udp;

import io.jroce.stack.transport.IpAddresses;
import io.jroce.stack.transport.RocePacketHandler;
import io.jroce.stack.transport.RoceTransport;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.RocePacket;
import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Sends a few RoCE datagrams from a private transport on 127.0.0.1 (a port the kernel picks) to
 * itself and reads them back, so that the JVM has loaded and run the send and receive paths of the
 * transport kind once before a device's first operation does: Netty's datagram write (a GSO run
 * and a single datagram), its read and buffer allocators, the ICRC on both sides. On a cold JVM
 * those paths loaded about 40 classes between a device's first post and its completion, most of
 * the 18 ms that operation took in the event-loop mode (docs/benchmarks.md). Nothing leaves the
 * host's loopback and the packets reach no device: the transport has a handler of its own.
 */
public final class LoopbackWarmUp {
    /** Loopback: present on every host jroce runs on, and never routed off it. */
    static final String ADDRESS = "127.0.0.1";
    /** Three same-size packets (one GSO run) and two shorter ones. */
    private static final int[] PAYLOADS = {1024, 1024, 1024, 0, 0};
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(1);

    private LoopbackWarmUp() {
    }

    /**
     * Runs the exchange through a {@link UdpTransport} (the event-loop mode's).
     *
     * @return how many of the datagrams came back within a second
     * @throws UdpTransportException the loopback socket could not be opened
     * @throws InterruptedException interrupted while waiting for them
     */
    public static int eventLoop() throws InterruptedException {
        Counting handler = new Counting();
        UdpTransport.Builder b = UdpTransport.builder().localAddress(ADDRESS).port(0);
        b.quiet = true;
        UdpTransport t = b.build();
        try {
            t.start(handler);
            t.eventLoop().execute(() -> {
                sendAll(t, t.port());
                t.flush();
            });
            handler.missing.await(TIMEOUT_NS, TimeUnit.NANOSECONDS);
            return handler.received();
        } finally {
            t.close();
        }
    }

    /**
     * Runs the exchange through a {@link DirectUdpTransport} (the invoker mode's), on this thread.
     *
     * @return how many of the datagrams came back within a second
     * @throws UdpTransportException the loopback socket could not be opened
     */
    public static int direct() {
        Counting handler = new Counting();
        DirectUdpTransport.Builder b = DirectUdpTransport.builder().localAddress(ADDRESS).port(0);
        b.quiet = true;
        DirectUdpTransport t = b.build();
        try {
            t.start(handler);
            sendAll(t, t.port());
            t.flush();
            long deadline = System.nanoTime() + TIMEOUT_NS;
            while (handler.missing.getCount() > 0 && System.nanoTime() - deadline < 0) {
                if (t.receive(PAYLOADS.length) == 0) {
                    t.await(TimeUnit.MILLISECONDS.toNanos(10), true);
                }
            }
            return handler.received();
        } finally {
            t.close();
        }
    }

    /** The datagrams one exchange sends. */
    static int datagrams() {
        return PAYLOADS.length;
    }

    private static void sendAll(RoceTransport t, int port) {
        UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(2048));
        RocePacket packet = new RocePacket();
        byte[] self = IpAddresses.toGidBytes(ADDRESS);
        for (int payload : PAYLOADS) {
            int length = packet.build(buffer, 0, Opcode.RC_SEND_ONLY, payload);
            t.send(buffer, 0, length, self, self, port);
        }
    }

    /** Counts what comes back; the packets themselves are not looked at. */
    private static final class Counting implements RocePacketHandler {
        final CountDownLatch missing = new CountDownLatch(PAYLOADS.length);

        int received() {
            return PAYLOADS.length - (int) missing.getCount();
        }

        @Override
        public void onPacket(DirectBuffer packet, int offset, int length, byte[] srcAddress, int srcPort,
                             byte[] dstAddress) {
            missing.countDown();
        }
    }
}
