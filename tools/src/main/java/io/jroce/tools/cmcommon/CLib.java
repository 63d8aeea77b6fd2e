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
