package io.jroce.stack.wire;

import org.agrona.DirectBuffer;

/**
 * RDMA Extended Transport Header (IBTA Vol. 1 9.3): the first packet of an RDMA WRITE and every
 * RDMA READ request carry it.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                     Virtual Address (63:32)                   |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                     Virtual Address (31:0)                    |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                             R_Key                             |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                           DMA Length                          |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
public final class RethFlyweight extends HeaderFlyweight {
    public static final int VIRTUAL_ADDRESS_OFFSET = 0;
    public static final int R_KEY_OFFSET = 8;
    public static final int DMA_LENGTH_OFFSET = 12;
    public static final int LENGTH = 16;

    public RethFlyweight wrap(DirectBuffer buffer, int offset) {
        wrapBuffer(buffer, offset, LENGTH);
        return this;
    }

    @Override
    public int headerLength() {
        return LENGTH;
    }

    public long virtualAddress() {
        return getInt64(VIRTUAL_ADDRESS_OFFSET);
    }

    public RethFlyweight virtualAddress(long va) {
        putInt64(VIRTUAL_ADDRESS_OFFSET, va);
        return this;
    }

    public int rKey() {
        return getInt32(R_KEY_OFFSET);
    }

    public RethFlyweight rKey(int rKey) {
        putInt32(R_KEY_OFFSET, rKey);
        return this;
    }

    /** Bytes of the whole RDMA message, unsigned 32 bits (up to 2^31 by the spec). */
    public long dmaLength() {
        return getInt32(DMA_LENGTH_OFFSET) & 0xFFFF_FFFFL;
    }

    public RethFlyweight dmaLength(long length) {
        putInt32(DMA_LENGTH_OFFSET, (int) length);
        return this;
    }
}
