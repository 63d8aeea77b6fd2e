package io.jroce.stack.wire;

import org.agrona.DirectBuffer;

/**
 * Datagram Extended Transport Header (IBTA Vol. 1 9.3): every UD packet carries it.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                             Q_Key                             |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |   Reserved    |                  Source QP                    |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
public final class DethFlyweight extends HeaderFlyweight {
    public static final int Q_KEY_OFFSET = 0;
    /** The 32-bit word whose low 24 bits are the source QP; its first byte is reserved. */
    public static final int SOURCE_QP_OFFSET = 4;
    public static final int LENGTH = 8;

    /** The Q_Key of QP1 (the GSI), which the CM MADs in the rping captures carry. */
    public static final int GSI_Q_KEY = 0x8001_0000;

    public DethFlyweight wrap(DirectBuffer buffer, int offset) {
        wrapBuffer(buffer, offset, LENGTH);
        return this;
    }

    @Override
    public int headerLength() {
        return LENGTH;
    }

    public int qKey() {
        return getInt32(Q_KEY_OFFSET);
    }

    public DethFlyweight qKey(int qKey) {
        putInt32(Q_KEY_OFFSET, qKey);
        return this;
    }

    /** Source QP number, 24 bits. */
    public int sourceQp() {
        return getUint24(SOURCE_QP_OFFSET);
    }

    /** Writes the whole word: the reserved byte goes out as 0. */
    public DethFlyweight sourceQp(int qpn) {
        putInt32(SOURCE_QP_OFFSET, qpn & UINT24_MASK);
        return this;
    }
}
