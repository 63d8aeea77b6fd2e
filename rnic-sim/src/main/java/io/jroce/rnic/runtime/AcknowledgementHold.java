package io.jroce.rnic.runtime;

import java.nio.ByteBuffer;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.jroce.stack.transport.RoceTransport;
import io.jroce.stack.wire.AethKind;
import io.jroce.stack.wire.AethSyndrome;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.OpcodeInfo;
import io.jroce.stack.wire.OpcodeTable;

/**
 * The plain ACKs an invoker-mode device sent during a turn, held until the turn's flush and then
 * sent after everything else the turn sent. A polling application thread's turn defers its flush
 * to the thread's next call ({@link InvokerIoContext}), and meanwhile the thread answers what it
 * polled: the ACK of the request it received then leaves after the answer. That keeps the ACK off
 * the answer's critical path (the answer goes first), and lets the two leave as one UDP GSO run
 * (the answer's size, the shorter ACK last), which a receiver with UDP GRO reads in one system
 * call: a ping-pong's half round trip costs one send and one read, as with no ACK at all.
 *
 * <p>What may overtake a held ACK: requests only, which are another flow (the opposite direction of
 * the same connection, or another QP). A response (NAK, RNR NAK, READ response, atomic ACK) is never
 * sent before an ACK its responder held: the held ones go first, so each responder's responses stay
 * in PSN order. An ACK acknowledges every PSN up to its own (IBTA 9.7.5.1.1); holding it within a
 * turn delays it by microseconds against a local ACK timeout of milliseconds.
 *
 * <p>Owner only (the thread holding the device's progress lock); preallocated, nothing allocated
 * per packet. When {@link #SLOTS} are held, the next ACK is sent at once.
 */
final class AcknowledgementHold {
    /** ACKs held at most: one turn reads {@link InvokerIoContext#RECEIVE_BATCH} datagrams. */
    static final int SLOTS = 64;
    /** A plain ACK: BTH (12) and AETH (4); RoCEv2 has no LRH or GRH in the UDP payload. */
    static final int ACK_LENGTH = 16;
    private static final int AETH_OFFSET = 12;
    private static final int ADDRESS_LENGTH = 16;

    private final UnsafeBuffer packets = new UnsafeBuffer(ByteBuffer.allocateDirect(SLOTS * ACK_LENGTH));
    private final byte[][] sources = new byte[SLOTS][ADDRESS_LENGTH];
    private final byte[][] destinations = new byte[SLOTS][ADDRESS_LENGTH];
    private final int[] ports = new int[SLOTS];
    private final long[] frames = new long[SLOTS];
    private final boolean[] framed = new boolean[SLOTS];
    private int count;

    /** Whether the packet is a plain ACK (RC ACKNOWLEDGE with an ACK syndrome, no payload). */
    static boolean isPlainAck(DirectBuffer packet, int offset, int length) {
        if (length != ACK_LENGTH || (packet.getByte(offset) & 0xFF) != Opcode.RC_ACKNOWLEDGE) {
            return false;
        }
        int syndrome = packet.getByte(offset + AETH_OFFSET) & 0xFF;
        return (syndrome & AethSyndrome.RESERVED_MASK) == 0 && AethSyndrome.kind(syndrome) == AethKind.ACK;
    }

    /** Whether the packet is a response of an RC responder: READ response, ACKNOWLEDGE or atomic ACK. */
    static boolean isResponse(DirectBuffer packet, int offset) {
        OpcodeInfo info = OpcodeTable.get(packet.getByte(offset) & 0xFF);
        return info != null && info.isResponse();
    }

    /**
     * Holds a plain ACK until {@link #release}.
     *
     * @param frame the event log's frame id, or {@code framed == false} when none was given
     * @return false when it cannot be held (all slots taken, or addresses not of 16 bytes): send it
     */
    boolean hold(DirectBuffer packet, int offset, byte[] src, byte[] dst, int port, long frame, boolean framed) {
        if (count == SLOTS || src.length != ADDRESS_LENGTH || dst.length != ADDRESS_LENGTH) {
            return false;
        }
        int i = count++;
        packets.putBytes(i * ACK_LENGTH, packet, offset, ACK_LENGTH);
        System.arraycopy(src, 0, sources[i], 0, ADDRESS_LENGTH);
        System.arraycopy(dst, 0, destinations[i], 0, ADDRESS_LENGTH);
        ports[i] = port;
        frames[i] = frame;
        this.framed[i] = framed;
        return true;
    }

    /** Sends what is held, in the order it was held, to {@code transport} (not flushed). */
    void release(RoceTransport transport) {
        int n = count;
        count = 0;
        for (int i = 0; i < n; i++) {
            if (framed[i]) {
                transport.send(packets, i * ACK_LENGTH, ACK_LENGTH, sources[i], destinations[i], ports[i], frames[i]);
            } else {
                transport.send(packets, i * ACK_LENGTH, ACK_LENGTH, sources[i], destinations[i], ports[i]);
            }
        }
    }

    /** ACKs held now. */
    int held() {
        return count;
    }
}
