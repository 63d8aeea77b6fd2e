package io.jroce.tools.cmcommon;

/** The C library's number parsing as librdmacm's examples use it on their options. */
public final class CLib {
    private CLib() {
    }

    /**
     * atoi: leading blanks, a sign, the digits 0-9 up to the first other character; 0 for none.
     * Beyond a long, strtol's ERANGE value, of which the cast to int keeps the low 32 bits.
     */
    public static int atoi(String s) {
        return (int) strtol(s);
    }

    /**
     * {@code (uint8_t) strtoul(s, NULL, 0)}, as the examples read -t (type of service) and -a (ACK
     * timeout): decimal, 0x hexadecimal or 0 octal, its low 8 bits (a negative number or one beyond
     * a long wraps as strtoul's does to the same low bits).
     */
    public static int uint8(String s) {
        int i = 0;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        boolean negative = false;
        if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            negative = s.charAt(i) == '-';
            i++;
        }
        int base = 10;
        if (s.startsWith("0x", i) || s.startsWith("0X", i)) {
            base = 16;
            i += 2;
        } else if (s.startsWith("0", i)) {
            base = 8;
        }
        long n = 0;
        boolean overflow = false;
        while (i < s.length() && Character.digit(s.charAt(i), base) >= 0) {
            int d = Character.digit(s.charAt(i), base);
            if (n > (Long.MAX_VALUE - d) / base) {
                overflow = true;
            } else {
                n = n * base + d;
            }
            i++;
        }
        if (overflow) {
            return 0xFF; // ULONG_MAX
        }
        return (int) ((negative ? -n : n) & 0xFF);
    }

    /** strtol in base 10. */
    private static long strtol(String s) {
        int i = 0;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        boolean negative = false;
        if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            negative = s.charAt(i) == '-';
            i++;
        }
        long n = 0;
        boolean saturated = false;
        while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            int d = s.charAt(i) - '0';
            if (n > (Long.MAX_VALUE - d) / 10) {
                saturated = true;
            } else {
                n = n * 10 + d;
            }
            i++;
        }
        if (saturated) {
            return negative ? Long.MIN_VALUE : Long.MAX_VALUE; // strtol's ERANGE value
        }
        return negative ? -n : n;
    }
}
