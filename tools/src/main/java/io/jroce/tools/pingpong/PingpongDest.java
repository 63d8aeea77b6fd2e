package io.jroce.tools.pingpong;

import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import java.nio.charset.StandardCharsets;

/**
 * What each side tells the other over TCP (struct pingpong_dest): LID, QPN, first PSN and GID, as
 * the text {@code "%04x:%06x:%06x:%s"} with the GID as 32 hex digits, in a 52-byte message
 * (the size of that text with 16-bit LID and 24-bit numbers, and its NUL).
 */
record PingpongDest(int lid, int qpn, int psn, Gid gid) {
    /** {@code sizeof "0000:000000:000000:00000000000000000000000000000000"}. */
    static final int MESSAGE_LENGTH = 52;

    byte[] toMessage() {
        String text = String.format("%04x:%06x:%06x:%s", lid, qpn, psn, gid.toWireHex());
        byte[] ascii = text.getBytes(StandardCharsets.US_ASCII);
        byte[] message = new byte[MESSAGE_LENGTH];
        System.arraycopy(ascii, 0, message, 0, Math.min(ascii.length, MESSAGE_LENGTH - 1));
        return message;
    }

    /**
     * Reads a peer's message as {@code sscanf("%x:%x:%x:%s")} and {@code wire_gid_to_gid} do,
     * except that anything malformed is an error rather than a zero.
     */
    static PingpongDest parse(byte[] message) {
        int end = 0;
        while (end < message.length && message[end] != 0) {
            end++;
        }
        String text = new String(message, 0, end, StandardCharsets.US_ASCII);
        String[] fields = text.split(":", 4);
        if (fields.length != 4) {
            throw new IllegalArgumentException("malformed address message '" + text + "'");
        }
        try {
            return new PingpongDest(hex(fields[0]), hex(fields[1]), hex(fields[2]), Gid.fromWireHex(fields[3].trim()));
        } catch (NumberFormatException | InvalidAttributeException e) {
            throw new IllegalArgumentException("malformed address message '" + text + "'", e);
        }
    }

    private static int hex(String field) {
        return Integer.parseUnsignedInt(field.trim(), 16);
    }

    /**
     * An entry srq_pingpong sends for each QP past num_qp: every field zero (memset of my_dest),
     * which reads {@code 0000:000000:000000:} and 32 zeros on the wire.
     */
    static PingpongDest unused() {
        return new PingpongDest(0, 0, 0, Gid.of(new byte[Gid.LENGTH]));
    }

    /** The text the tools print after "local address:" or "remote address:". */
    String describe() {
        return describe(", ");
    }

    /** As {@link #describe()}, with {@code beforeGid} before "GID" (ud_pingpong's local line has ": "). */
    String describe(String beforeGid) {
        return String.format("LID 0x%04x, QPN 0x%06x, PSN 0x%06x%sGID %s", lid, qpn, psn, beforeGid,
            GidText.format(gid));
    }

    /**
     * Whether the GID's interface ID (its low 8 bytes) is non-zero: ibv_rc_pingpong gives the
     * address vector a GRH only then, and RoCE cannot go without one.
     */
    boolean hasGlobalRoute() {
        for (int i = 8; i < Gid.LENGTH; i++) {
            if (gid.byteAt(i) != 0) {
                return true;
            }
        }
        return false;
    }
}
