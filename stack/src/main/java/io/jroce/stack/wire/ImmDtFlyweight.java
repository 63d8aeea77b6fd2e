package io.jroce.stack.wire;

import org.agrona.DirectBuffer;

/**
 * Immediate Data Extended Transport Header (IBTA Vol. 1 9.3): 4 opaque bytes the sender hands to
 * the receiver's completion, carried by the *_WITH_IMMEDIATE opcodes.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                        Immediate Data                         |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * The value is read big-endian, byte 0 in the high bits. Verbs ({@code ibv_wc.imm_data}) hand the
 * same 4 bytes over in network order, so a C peer's {@code htonl(x)} arrives here as {@code x}.
 */
public final class ImmDtFlyweight extends HeaderFlyweight {
    public static final int IMMEDIATE_DATA_OFFSET = 0;
    public static final int LENGTH = 4;

    public ImmDtFlyweight wrap(DirectBuffer buffer, int offset) {
        wrapBuffer(buffer, offset, LENGTH);
        return this;
    }

    @Override
    public int headerLength() {
        return LENGTH;
    }

    public int immediateData() {
        return getInt32(IMMEDIATE_DATA_OFFSET);
    }

    public ImmDtFlyweight immediateData(int value) {
        putInt32(IMMEDIATE_DATA_OFFSET, value);
        return this;
    }
}
