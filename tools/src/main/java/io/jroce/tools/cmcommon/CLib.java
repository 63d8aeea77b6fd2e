package io.jroce.tools.cmcommon;

/** The C library's number parsing as librdmacm's examples use it on their options. */
public final class CLib {
    private CLib() {
    }

    /**
     * atoi: leading blanks, a sign, the digits 0-9 up to the first other character; 0 for none.
     * Beyond a long, strtol's ERANGE value, of which the cast to int keeps the low 32 bits.
     *
     * @param s the text
     * @return the number
     */
    public static int atoi(String s) {
        return (int) strtol(s, 10);
    }

    /**
     * {@code (uint8_t) strtoul(s, NULL, 0)}, as the examples read -t (type of service) and -a (ACK
     * timeout): decimal, 0x hexadecimal or 0 octal, its low 8 bits (a negative number wraps as
     * strtoul's does to the same low bits; one beyond a long is strtoul's ULONG_MAX, 0xFF).
     *
     * @param s the text
     * @return the number's low 8 bits, 0..255
     */
    public static int uint8(String s) {
        long n = strtol(s, 0);
        return n == Long.MIN_VALUE ? 0xFF : (int) (n & 0xFF);
    }

    /**
     * strtol(s, NULL, 0): decimal, 0x hexadecimal or 0 octal, up to the first other character.
     *
     * @param s the text
     * @return the number
     */
    public static long strtol(String s) {
        return strtol(s, 0);
    }

    /**
     * strtol(s, NULL, base): leading blanks, a sign, with base 0 a 0x (hexadecimal) or 0 (octal) prefix,
     * then the digits of the base up to the first other character; beyond a long, ERANGE's value.
     *
     * @param s the text
     * @param base 2..36, or 0 for the prefix to decide
     * @return the number
     */
    public static long strtol(String s, int base) {
        int i = 0;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        boolean negative = false;
        if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            negative = s.charAt(i) == '-';
            i++;
        }
        if (base == 0) {
            if (s.startsWith("0x", i) || s.startsWith("0X", i)) {
                base = 16;
                i += 2;
            } else {
                base = s.startsWith("0", i) ? 8 : 10;
            }
        }
        long n = 0;
        boolean saturated = false;
        for (int d; i < s.length() && (d = digit(s.charAt(i), base)) >= 0; i++) {
            if (n > (Long.MAX_VALUE - d) / base) {
                saturated = true;
            } else {
                n = n * base + d;
            }
        }
        if (saturated) {
            return negative ? Long.MIN_VALUE : Long.MAX_VALUE; // strtol's ERANGE value
        }
        return negative ? -n : n;
    }

    /** The ASCII digit {@code c} in {@code base}, or -1. */
    private static int digit(char c, int base) {
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'z' ? c - 'a' + 10 : c >= 'A' && c <= 'Z' ? c - 'A' + 10 : -1;
        return d < base ? d : -1;
    }
}
