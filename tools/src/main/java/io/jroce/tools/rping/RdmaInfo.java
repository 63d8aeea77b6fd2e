package io.jroce.tools.rping;

import java.nio.ByteBuffer;

/**
 * rping's only message, {@code struct rping_rdma_info}: a buffer's address, rkey and size, big-endian,
 * 16 bytes. A SEND of any other length is "bogus data".
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                         buf (64 bits)                         |
 * +                                                               +
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                              rkey                             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                              size                             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
record RdmaInfo(long buf, int rkey, int size) {
    static final int LENGTH = 16;
    private static final int BUF_OFFSET = 0;
    private static final int RKEY_OFFSET = 8;
    private static final int SIZE_OFFSET = 12;

    /** Writes the message at the start of {@code dst} (a ByteBuffer's default order is big-endian; absolute puts keep it). */
    void writeTo(ByteBuffer dst) {
        ByteBuffer b = dst.duplicate().order(java.nio.ByteOrder.BIG_ENDIAN);
        b.putLong(BUF_OFFSET, buf).putInt(RKEY_OFFSET, rkey).putInt(SIZE_OFFSET, size);
    }

    static RdmaInfo readFrom(ByteBuffer src) {
        ByteBuffer b = src.duplicate().order(java.nio.ByteOrder.BIG_ENDIAN);
        return new RdmaInfo(b.getLong(BUF_OFFSET), b.getInt(RKEY_OFFSET), b.getInt(SIZE_OFFSET));
    }
}
