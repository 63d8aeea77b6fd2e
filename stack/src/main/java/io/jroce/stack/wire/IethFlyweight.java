package io.jroce.stack.wire;

import org.agrona.DirectBuffer;

/**
 * Invalidate Extended Transport Header (IBTA Vol. 1 9.3): the R_Key that SEND_LAST_WITH_INVALIDATE
 * and SEND_ONLY_WITH_INVALIDATE ask the responder to invalidate.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                             R_Key                             |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
public final class IethFlyweight extends HeaderFlyweight {
    public static final int R_KEY_OFFSET = 0;
    public static final int LENGTH = 4;

    public IethFlyweight wrap(DirectBuffer buffer, int offset) {
        wrapBuffer(buffer, offset, LENGTH);
        return this;
    }

    @Override
    public int headerLength() {
        return LENGTH;
    }

    public int rKey() {
        return getInt32(R_KEY_OFFSET);
    }

    public IethFlyweight rKey(int rKey) {
        putInt32(R_KEY_OFFSET, rKey);
        return this;
    }
}
