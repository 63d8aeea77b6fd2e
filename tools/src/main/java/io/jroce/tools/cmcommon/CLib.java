package io.jroce.tools.cmcommon;

/** The C library's number parsing as librdmacm's examples use it on their options. */
public final class CLib {
    private CLib() {
    }

    /** atoi: leading blanks, a sign, the digits up to the first other character; 0 for none. */
    public static int atoi(String s) {
        return (int) strtol(s, 10);
    }

    private static long strtol(String s, int base) {
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
        while (i < s.length() && Character.digit(s.charAt(i), base) >= 0) {
            int d = Character.digit(s.charAt(i), base);
            if (n > (Long.MAX_VALUE - d) / base) {
                saturated = true;
            } else {
                n = n * base + d;
            }
            i++;
        }
        if (saturated) {
            return negative ? Long.MIN_VALUE : Long.MAX_VALUE; // strtol's ERANGE value
        }
        return negative ? -n : n;
    }
}
