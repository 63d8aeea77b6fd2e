package io.jroce.benchmarks.harness;

import io.jroce.stack.transport.RocePacketHandler;
import java.nio.ByteBuffer;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** The passive side of {@code udp_lat}: answers each probe at once with a datagram of its length. */
final class PingServer implements RocePacketHandler {
    private final UdpEndpoint endpoint;
    private final UnsafeBuffer tx = new UnsafeBuffer(ByteBuffer.allocateDirect(UdpEndpoint.MAX_PACKET));
    private long answered;

    PingServer(UdpEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    @Override
    public void onPacket(DirectBuffer packet, int offset, int length, byte[] srcAddress, int srcPort, byte[] dstAddress) {
        if (BaselineDatagram.kind(packet, offset) != BaselineDatagram.PING || length > tx.capacity()) {
            return;
        }
        BaselineDatagram.write(tx, BaselineDatagram.PING, 0, 0, BaselineDatagram.seq(packet, offset));
        if (endpoint.send(tx, length, srcAddress, srcPort)) {
            answered++; // flushed by the transport when this receive batch ends
        }
    }

    void tick() {
        endpoint.flush();
    }

    long answered() {
        return answered;
    }
}
