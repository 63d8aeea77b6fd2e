package io.jroce.tools.perftest;

import io.jroce.verbs.Gid;
import java.nio.charset.StandardCharsets;

/**
 * What each side tells the other about one QP (struct pingpong_dest), as perftest writes it over
 * TCP when it has a GID index, which it always has on RoCE: the text
 * {@code "%04x:%04x:%06x:%06x:%08x:%016llx:"} + 16 x {@code "%02x:"} + {@code "%08x:"}, that is lid :
 * out_reads : qpn : psn : rkey : vaddr : the 16 GID bytes : srqn, in a 108-byte message (the text
 * and its NUL).
 */
record PerftestDest(int lid, int outReads, int qpn, int psn, int rkey, long vaddr, Gid gid, int srqn) {
    /** KEY_MSG_SIZE_GID. */
    static final int MESSAGE_LENGTH = 108;

    byte[] toMessage() {
        StringBuilder sb = new StringBuilder(MESSAGE_LENGTH);
        sb.append(String.format("%04x:%04x:%06x:%06x:%08x:%016x:", lid, outReads, qpn, psn, rkey, vaddr));
        for (int i = 0; i < Gid.LENGTH; i++) {
            sb.append(String.format("%02x:", gid.byteAt(i) & 0xFF));
        }
        sb.append(String.format("%08x:", srqn));
        byte[] ascii = sb.toString().getBytes(StandardCharsets.US_ASCII);
        byte[] message = new byte[MESSAGE_LENGTH];
        System.arraycopy(ascii, 0, message, 0, Math.min(ascii.length, MESSAGE_LENGTH - 1));
        return message;
    }

    /** Reads a peer's message field by field (strtol base 16), as ethernet_read_keys does. */
    static PerftestDest parse(byte[] message) {
        int end = 0;
        while (end < message.length && message[end] != 0) {
            end++;
        }
        String text = new String(message, 0, end, StandardCharsets.US_ASCII);
        String[] f = text.split(":", -1);
        if (f.length < 23) {
            throw new IllegalArgumentException("malformed key message '" + text + "'");
        }
        try {
            byte[] gid = new byte[Gid.LENGTH];
            for (int i = 0; i < Gid.LENGTH; i++) {
                gid[i] = (byte) Integer.parseInt(f[6 + i], 16);
            }
            return new PerftestDest(Integer.parseInt(f[0], 16), Integer.parseInt(f[1], 16),
                Integer.parseInt(f[2], 16), Integer.parseInt(f[3], 16), Integer.parseUnsignedInt(f[4], 16),
                Long.parseUnsignedLong(f[5], 16), Gid.of(gid), Integer.parseUnsignedInt(f[22], 16));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("malformed key message '" + text + "'", e);
        }
    }

    /**
     * ctx_print_pingpong_data: the address line (with OUT for READ, RKey and VAddr for every
     * RDMA verb, as its fall-through switch does) and the GID line, whose bytes it prints in decimal.
     */
    String describe(String side, PerftestTool.Verb verb) {
        StringBuilder sb = new StringBuilder();
        sb.append(" ").append(side).append(" address: LID ").append(CFormat.alt(lid, 4)).append(" QPN ")
            .append(CFormat.alt(qpn, 6)).append(" PSN ").append(CFormat.alt(psn, 6));
        // perftest switches on the verb's number (SEND 0, WRITE 1, READ 2, ATOMIC 3): READ falls through.
        if (verb == PerftestTool.Verb.READ) {
            sb.append(" OUT ").append(CFormat.alt(outReads, 4));
        }
        if (verb == PerftestTool.Verb.READ || verb == PerftestTool.Verb.WRITE) {
            sb.append(" RKey ").append(CFormat.alt(rkey & 0xFFFF_FFFFL, 8)).append(" VAddr ")
                .append(CFormat.alt(vaddr, 16));
        }
        sb.append('\n').append(" GID: ");
        for (int i = 0; i < Gid.LENGTH; i++) {
            if (i > 0) {
                sb.append(':');
            }
            sb.append(String.format("%02d", gid.byteAt(i) & 0xFF));
        }
        return sb.toString();
    }
}
