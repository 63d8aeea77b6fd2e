package io.jroce.tools.perftest;

/** The bits of C's printf that perftest's output depends on and Java's Formatter does differently. */
final class CFormat {
    private CFormat() {
    }

    /**
     * {@code %#0Nx}: "0x" and zero-padded hex digits, N characters in all; 0 prints as N zeros
     * (the # flag adds no prefix to zero).
     */
    static String alt(long value, int width) {
        if (value == 0) {
            return "0".repeat(width);
        }
        String hex = Long.toHexString(value);
        int digits = Math.max(width - 2, hex.length());
        return "0x" + "0".repeat(digits - hex.length()) + hex;
    }
}
