package io.jroce.verbs.exchange;

import io.jroce.verbs.InvalidAttributeException;
import java.nio.charset.StandardCharsets;

/** The checks and text handling the message formats share. */
final class Fields {
    private Fields() {
    }

    /** Refuses a value with bits outside {@code mask} (an unsigned field of that width). */
    static void check(long value, long mask, String name) {
        if ((value & ~mask) != 0) {
            throw new InvalidAttributeException(name + " 0x" + Long.toHexString(value) + " does not fit in "
                + Long.bitCount(mask) + " bits");
        }
    }

    /** The message's text up to its first NUL, as C reads a string. */
    static String text(byte[] message) {
        if (message == null) {
            throw new IllegalArgumentException("message is null");
        }
        int end = 0;
        while (end < message.length && message[end] != 0) {
            end++;
        }
        return new String(message, 0, end, StandardCharsets.US_ASCII);
    }

    /**
     * Appends C's {@code %0Nx} of {@code value} (unsigned, lowercase, at least {@code digits}
     * digits). By hand rather than with {@link String#format}: perftest's twins write a message per
     * QP, and at 1,024 QPs the formatter grew hot enough for the JIT to compile it for seconds,
     * into the measured part of the run.
     */
    static StringBuilder appendHex(StringBuilder sb, long value, int digits) {
        String hex = Long.toHexString(value);
        for (int i = hex.length(); i < digits; i++) {
            sb.append('0');
        }
        return sb.append(hex);
    }

    /** {@link #appendHex(StringBuilder, long, int)} of a C {@code int}: its 32 bits unsigned. */
    static StringBuilder appendHex(StringBuilder sb, int value, int digits) {
        return appendHex(sb, value & 0xFFFF_FFFFL, digits);
    }

    /** An unsigned hex field, blanks around it allowed as scanf allows them. */
    static int hex(String field) {
        return Integer.parseUnsignedInt(field.trim(), 16);
    }
}
