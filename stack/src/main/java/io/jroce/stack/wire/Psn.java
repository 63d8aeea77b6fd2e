package io.jroce.stack.wire;

/**
 * 24-bit packet sequence number arithmetic (IBTA Vol. 1 9.7: PSNs wrap modulo 2^24). Compare
 * PSNs only through {@link #compare}: a plain {@code <} breaks at the wrap.
 */
public final class Psn {
    public static final int MASK = 0x00FF_FFFF;
    /** 2^24 PSN values. */
    public static final int MODULUS = 1 << 24;
    /** 2^23: half the PSN space, the widest distance two PSNs can be apart and still be ordered. */
    public static final int HALF_WINDOW = 1 << 23;

    private Psn() {
    }

    /** {@code psn + n}, wrapped to 24 bits; {@code n} may be negative. */
    public static int add(int psn, int n) {
        return (psn + n) & MASK;
    }

    /** The PSN after {@code psn}. */
    public static int next(int psn) {
        return (psn + 1) & MASK;
    }

    /**
     * The signed distance {@code a - b} in [-2^23, 2^23): positive when {@code a} is ahead of
     * {@code b}, taking the shorter way round the 24-bit circle. At exactly 2^23 apart the order
     * is ambiguous and the result is -2^23.
     */
    public static int diff(int a, int b) {
        // Shift the 24-bit difference into the top of an int and back, so its bit 23 becomes the sign.
        return ((a - b) << 8) >> 8;
    }

    /** Less than, equal to or greater than zero as {@code a} is behind, equal to or ahead of {@code b}. */
    public static int compare(int a, int b) {
        return diff(a, b);
    }

    /** True if {@code psn} fits in 24 bits. */
    public static boolean isValid(int psn) {
        return (psn & ~MASK) == 0;
    }
}
