package io.jroce.stack.wire;

import org.agrona.DirectBuffer;

/**
 * ACK Extended Transport Header (IBTA Vol. 1 9.3): carried by ACKNOWLEDGE, ATOMIC ACKNOWLEDGE and
 * the first, last and only RDMA READ response packets.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |0| K |  Value  |            Message Sequence Number            |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * The first byte is the syndrome (K: kind), see {@link AethSyndrome}.
 */
public final class AethFlyweight extends HeaderFlyweight {
    public static final int SYNDROME_OFFSET = 0;
    /** The 32-bit word whose low 24 bits are the MSN. */
    public static final int MSN_OFFSET = 0;
    public static final int LENGTH = 4;

    public AethFlyweight wrap(DirectBuffer buffer, int offset) {
        wrapBuffer(buffer, offset, LENGTH);
        return this;
    }

    @Override
    public int headerLength() {
        return LENGTH;
    }

    public int syndrome() {
        return getUint8(SYNDROME_OFFSET);
    }

    public AethFlyweight syndrome(int syndrome) {
        putUint8(SYNDROME_OFFSET, syndrome);
        return this;
    }

    /** Message sequence number, 24 bits: the count of requests the responder completed. */
    public int msn() {
        return getUint24(MSN_OFFSET);
    }

    public AethFlyweight msn(int msn) {
        putUint24(MSN_OFFSET, msn);
        return this;
    }

    public AethKind kind() {
        return AethSyndrome.kind(syndrome());
    }

    /** The credit count of an ACK; {@link AethSyndrome#NO_CREDIT_COUNT} when none is reported. */
    public int creditCount() {
        return AethSyndrome.value(syndrome());
    }

    /** The RNR timer code of an RNR NAK. */
    public int rnrTimer() {
        return AethSyndrome.value(syndrome());
    }

    /** The NAK code of a NAK, or null if this is no NAK or the code is reserved. */
    public NakCode nakCode() {
        return AethSyndrome.nakCode(syndrome());
    }

    public AethFlyweight ack(int msn, int creditCount) {
        return word(AethSyndrome.ack(creditCount), msn);
    }

    public AethFlyweight rnrNak(int msn, int rnrTimerCode) {
        return word(AethSyndrome.rnrNak(rnrTimerCode), msn);
    }

    public AethFlyweight nak(int msn, NakCode code) {
        return word(AethSyndrome.nak(code), msn);
    }

    private AethFlyweight word(int syndrome, int msn) {
        putInt32(MSN_OFFSET, (syndrome << 24) | (msn & UINT24_MASK));
        return this;
    }
}
