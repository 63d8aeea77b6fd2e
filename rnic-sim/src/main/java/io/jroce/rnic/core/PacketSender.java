package io.jroce.rnic.core;

import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;

import io.jroce.stack.stats.Counter;
import io.jroce.stack.stats.Counters;
import io.jroce.stack.transport.RoceTransport;
import io.jroce.stack.wire.AethSyndrome;
import io.jroce.stack.wire.BthFlyweight;
import io.jroce.stack.wire.NakCode;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.RocePacket;

/**
 * Builds outgoing packets in one reusable off-heap buffer and hands them to the transport. I/O
 * thread only; nothing here allocates per packet.
 */
final class PacketSender {
    /** Largest packet: BTH + RETH + ImmDt (or AtomicETH) + a 4096-byte payload, with room to spare. */
    private static final int BUFFER_SIZE = 8192;

    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(BUFFER_SIZE));
    private final RocePacket packet = new RocePacket();
    private final RoceTransport transport;
    private final Counters counters;
    private int length;
    private boolean sentSinceFlush;

    PacketSender(RoceTransport transport, Counters counters) {
        this.transport = transport;
        this.counters = counters;
    }

    /**
     * Lays out a packet for {@code qp}'s peer: BTH with opcode, pad, P_Key 0xFFFF, destination QP
     * and PSN; the caller fills the extension headers and the payload through {@link #packet()}.
     */
    RocePacket begin(QpContext qp, int opcode, int psn, int payloadLength) {
        return begin(qp.destQpn, opcode, psn, payloadLength);
    }

    /** As {@link #begin(QpContext, int, int, int)}, to an explicit destination QP (UD). */
    RocePacket begin(int destQpn, int opcode, int psn, int payloadLength) {
        length = packet.build(buffer, 0, opcode, payloadLength);
        packet.bth().partitionKey(BthFlyweight.DEFAULT_P_KEY).destQp(destQpn).psn(psn);
        return packet;
    }

    RocePacket packet() {
        return packet;
    }

    UnsafeBuffer buffer() {
        return buffer;
    }

    /** Sends the packet laid out by {@link #begin}. */
    void send(QpContext qp) {
        send(qp.sgid, qp.dgid, qp.udpPort());
    }

    /**
     * Sends the packet laid out by {@link #begin} from {@code sgid} to {@code dgid}:{@code port}.
     *
     * @return false when the transport refused it (and counted why)
     */
    boolean send(byte[] sgid, byte[] dgid, int port) {
        if (transport.send(buffer, 0, length, sgid, dgid, port)) {
            counters.increment(Counter.SENT_PKTS);
            counters.add(Counter.SENT_BYTES, packet.payloadLength());
            sentSinceFlush = true;
            return true;
        }
        return false;
    }

    /** An ACKNOWLEDGE packet: an ACK, RNR NAK or NAK for {@code psn} (IBTA 9.7.5.1). */
    void acknowledge(QpContext qp, int psn, int syndrome, int msn) {
        begin(qp, Opcode.RC_ACKNOWLEDGE, psn, 0);
        packet.aeth().syndrome(syndrome).msn(msn);
        send(qp);
    }

    void ack(QpContext qp, int psn, int msn) {
        acknowledge(qp, psn, AethSyndrome.ack(AethSyndrome.NO_CREDIT_COUNT), msn);
    }

    void nak(QpContext qp, int psn, NakCode code, int msn) {
        acknowledge(qp, psn, AethSyndrome.nak(code), msn);
    }

    void flushIfNeeded() {
        if (sentSinceFlush) {
            sentSinceFlush = false;
            transport.flush();
        }
    }
}
