package io.jroce.benchmarks.harness;

import io.jroce.stack.transport.RocePacketHandler;
import java.nio.ByteBuffer;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The passive side of {@code udp_bw}, on its event loop, doing per datagram only what pacing needs:
 * answers a 16-byte ACK (an RC ACK's BTH + AETH) to each data datagram that asks for one, or with
 * --read answers each request with the datagrams of an RDMA READ response of the message size.
 * What it sends while handling a receive batch is flushed by the transport when the batch ends,
 * as the RNIC's answers are.
 */
final class StreamServer implements RocePacketHandler {
    private final UdpEndpoint endpoint;
    private final boolean read;
    private final int[] responseLengths;
    private final UnsafeBuffer tx;
    private long receivedDatagrams;
    private long receivedBytes;
    private long sentDatagrams;
    private long refusedSends;

    StreamServer(UdpEndpoint endpoint, boolean read, int size, int mtu) {
        this.endpoint = endpoint;
        this.read = read;
        this.responseLengths = WireLayout.packetLengths(WireLayout.Operation.RDMA_READ_RESPONSE, size, mtu);
        this.tx = new UnsafeBuffer(ByteBuffer.allocateDirect(Math.max(responseLengths[0], WireLayout.ACK_LENGTH)));
    }

    @Override
    public void onPacket(DirectBuffer packet, int offset, int length, byte[] srcAddress, int srcPort, byte[] dstAddress) {
        receivedDatagrams++;
        receivedBytes += length;
        byte kind = BaselineDatagram.kind(packet, offset);
        int flow = BaselineDatagram.flow(packet, offset);
        int seq = BaselineDatagram.seq(packet, offset);
        if (!read && kind == BaselineDatagram.DATA
            && (BaselineDatagram.flags(packet, offset) & BaselineDatagram.ACK_REQUEST) != 0) {
            BaselineDatagram.write(tx, BaselineDatagram.ACK, 0, flow, seq);
            send(WireLayout.ACK_LENGTH, srcAddress, srcPort);
        } else if (read && kind == BaselineDatagram.REQUEST) {
            int n = responseLengths.length;
            for (int i = 0; i < n; i++) {
                int flags = i == n - 1 ? BaselineDatagram.LAST : 0;
                BaselineDatagram.write(tx, BaselineDatagram.DATA, flags, flow, seq * n + i);
                send(responseLengths[i], srcAddress, srcPort);
            }
        }
    }

    private void send(int length, byte[] dst16, int dstPort) {
        if (endpoint.send(tx, length, dst16, dstPort)) {
            sentDatagrams++;
        } else {
            refusedSends++;
        }
    }

    /** The RNIC's timer tick has nothing to do here but is kept, so both wake up as often. */
    void tick() {
        endpoint.flush();
    }

    long receivedDatagrams() {
        return receivedDatagrams;
    }

    long receivedBytes() {
        return receivedBytes;
    }

    long sentDatagrams() {
        return sentDatagrams;
    }

    long refusedSends() {
        return refusedSends;
    }
}
