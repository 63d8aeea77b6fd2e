package io.jroce.stack.wire;

import org.agrona.DirectBuffer;

/**
 * Atomic Extended Transport Header (IBTA Vol. 1 9.3): COMPARE SWAP and FETCH ADD requests carry
 * it. 28 bytes, so the 64-bit fields after the R_Key are not 8-byte aligned.
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
 *  |                   Swap (or Add) Data (63:32)                  |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                   Swap (or Add) Data (31:0)                   |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                      Compare Data (63:32)                     |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                      Compare Data (31:0)                      |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
public final class AtomicEthFlyweight extends HeaderFlyweight {
    public static final int VIRTUAL_ADDRESS_OFFSET = 0;
    public static final int R_KEY_OFFSET = 8;
    public static final int SWAP_ADD_DATA_OFFSET = 12;
    public static final int COMPARE_DATA_OFFSET = 20;
    public static final int LENGTH = 28;

    public AtomicEthFlyweight wrap(DirectBuffer buffer, int offset) {
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

    public AtomicEthFlyweight virtualAddress(long va) {
        putInt64(VIRTUAL_ADDRESS_OFFSET, va);
        return this;
    }

    public int rKey() {
        return getInt32(R_KEY_OFFSET);
    }

    public AtomicEthFlyweight rKey(int rKey) {
        putInt32(R_KEY_OFFSET, rKey);
        return this;
    }

    /** The value to swap in (COMPARE SWAP) or to add (FETCH ADD). */
    public long swapAddData() {
        return getInt64(SWAP_ADD_DATA_OFFSET);
    }

    public AtomicEthFlyweight swapAddData(long value) {
        putInt64(SWAP_ADD_DATA_OFFSET, value);
        return this;
    }

    /** The value to compare with (COMPARE SWAP only; FETCH ADD ignores it). */
    public long compareData() {
        return getInt64(COMPARE_DATA_OFFSET);
    }

    public AtomicEthFlyweight compareData(long value) {
        putInt64(COMPARE_DATA_OFFSET, value);
        return this;
    }
}
