package io.jroce.stack.wire;

import org.agrona.DirectBuffer;

/**
 * Atomic Acknowledge Extended Transport Header (IBTA Vol. 1 9.3): follows the AETH in an ATOMIC
 * ACKNOWLEDGE and returns the value the target held before the atomic operation.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                   Original Remote Data (63:32)                |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                   Original Remote Data (31:0)                 |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
public final class AtomicAckEthFlyweight extends HeaderFlyweight {
    public static final int ORIGINAL_REMOTE_DATA_OFFSET = 0;
    public static final int LENGTH = 8;

    public AtomicAckEthFlyweight wrap(DirectBuffer buffer, int offset) {
        wrapBuffer(buffer, offset, LENGTH);
        return this;
    }

    @Override
    public int headerLength() {
        return LENGTH;
    }

    public long originalRemoteData() {
        return getInt64(ORIGINAL_REMOTE_DATA_OFFSET);
    }

    public AtomicAckEthFlyweight originalRemoteData(long value) {
        putInt64(ORIGINAL_REMOTE_DATA_OFFSET, value);
        return this;
    }
}
