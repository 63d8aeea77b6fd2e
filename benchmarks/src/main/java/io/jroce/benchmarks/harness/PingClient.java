package io.jroce.benchmarks.harness;

import io.jroce.stack.transport.RocePacketHandler;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The active side of {@code udp_lat}, on its event loop: sends one datagram, waits for it to come
 * back, and records the round trip, -n times (or for -D seconds). A datagram lost on the way is
 * sent again after {@link #RESEND_NS}; that iteration's time is the successful attempt's.
 */
final class PingClient implements RocePacketHandler {
    static final long RESEND_NS = 1_000_000_000L;

    private final BaselineOptions o;
    private final UdpEndpoint endpoint;
    private final byte[] peer16;
    private final int peerPort;
    private final int length;
    private final UnsafeBuffer tx;
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private long[] rttNs;
    private int count;
    private int resends;
    private long sentNs;
    private long deadlineNs;

    PingClient(BaselineOptions o, UdpEndpoint endpoint, byte[] peer16, int peerPort) {
        this.o = o;
        this.endpoint = endpoint;
        this.peer16 = peer16;
        this.peerPort = peerPort;
        this.length = WireLayout.packetLength(WireLayout.Operation.SEND, o.size(), o.mtu(), 0);
        this.tx = new UnsafeBuffer(ByteBuffer.allocateDirect(length));
        this.rttNs = new long[o.durationSecs() > 0 ? 1 << 16 : o.iters()];
    }

    /** Sends the first probe; call on the event loop. */
    void start() {
        deadlineNs = System.nanoTime() + o.durationSecs() * 1_000_000_000L;
        sendProbe();
        endpoint.flush();
    }

    CompletableFuture<Void> done() {
        return done;
    }

    private void sendProbe() {
        BaselineDatagram.write(tx, BaselineDatagram.PING, 0, 0, count);
        sentNs = System.nanoTime();
        endpoint.send(tx, length, peer16, peerPort);
    }

    @Override
    public void onPacket(DirectBuffer packet, int offset, int len, byte[] srcAddress, int srcPort, byte[] dstAddress) {
        long now = System.nanoTime();
        if (done.isDone() || BaselineDatagram.kind(packet, offset) != BaselineDatagram.PING
            || BaselineDatagram.seq(packet, offset) != count) {
            return; // late answer to a probe sent again
        }
        if (count == rttNs.length) {
            rttNs = Arrays.copyOf(rttNs, count * 2);
        }
        rttNs[count++] = now - sentNs;
        boolean finished = o.durationSecs() > 0 ? now - deadlineNs >= 0 : count == o.iters();
        if (finished) {
            done.complete(null);
        } else {
            sendProbe(); // flushed by the transport when this receive batch ends
        }
    }

    /** Every 0.5 ms, as the RNIC's timer: sends a probe again when it or its answer was lost. */
    void tick() {
        if (!done.isDone() && System.nanoTime() - sentNs > RESEND_NS) {
            resends++;
            sendProbe();
            endpoint.flush();
        }
    }

    /** Round trips in ns, in order; read after {@link #done()} completed. */
    long[] roundTrips() {
        return Arrays.copyOf(rttNs, count);
    }

    int resends() {
        return resends;
    }
}
