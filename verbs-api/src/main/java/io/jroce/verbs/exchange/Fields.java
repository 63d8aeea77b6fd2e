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

    /** An unsigned hex field, blanks around it allowed as scanf allows them. */
    static int hex(String field) {
        return Integer.parseUnsignedInt(field.trim(), 16);
    }
}
