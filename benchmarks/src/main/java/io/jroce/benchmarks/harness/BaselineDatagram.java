package io.jroce.benchmarks.harness;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * What the raw-UDP baselines put in their datagrams: no RDMA protocol, only what they need to pace
 * and count, in the first 12 bytes (where a BTH would be, and the shortest datagram
 * {@code UdpTransport} accepts): a kind, flags, a flow number and a sequence number. The rest of
 * a datagram is whatever its buffer held; only its length matters.
 */
final class BaselineDatagram {
    static final int KIND = 0;
    static final int FLAGS = 1;
    static final int FLOW = 4;
    static final int SEQ = 8;
    static final int HEADER = 12;

    /** Data of a stream (WRITE) or of a response (READ). */
    static final byte DATA = 1;
    /** The receiver's acknowledgement of every datagram of a flow up to SEQ. */
    static final byte ACK = 2;
    /** A request for one message of response datagrams; SEQ is the message number. */
    static final byte REQUEST = 3;
    /** A latency probe; SEQ is the iteration. */
    static final byte PING = 4;

    /** On DATA: the sender asks for an ACK (as the BTH's AckReq bit does). */
    static final int ACK_REQUEST = 0x01;
    /** On DATA: the last datagram of a message. */
    static final int LAST = 0x02;

    private BaselineDatagram() {
    }

    static void write(MutableDirectBuffer b, byte kind, int flags, int flow, int seq) {
        b.putByte(KIND, kind);
        b.putByte(FLAGS, (byte) flags);
        b.putInt(FLOW, flow);
        b.putInt(SEQ, seq);
    }

    static byte kind(DirectBuffer b, int offset) {
        return b.getByte(offset + KIND);
    }

    static int flags(DirectBuffer b, int offset) {
        return b.getByte(offset + FLAGS) & 0xFF;
    }

    static int flow(DirectBuffer b, int offset) {
        return b.getInt(offset + FLOW);
    }

    static int seq(DirectBuffer b, int offset) {
        return b.getInt(offset + SEQ);
    }
}
