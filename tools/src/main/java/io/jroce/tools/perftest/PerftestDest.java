package io.jroce.tools.perftest;

import io.jroce.verbs.Gid;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What each side tells the other about one QP (struct pingpong_dest), as perftest writes it over
 * TCP when it has a GID index, which it always has on RoCE: the text
 * {@code "%04x:%04x:%06x:%06x:%08x:%016llx:"} + 16 x {@code "%02x:"} + {@code "%08x:"}, that is lid :
 * out_reads : qpn : psn : rkey : vaddr : the 16 GID bytes : srqn, in a 108-byte message (the text
 * and its NUL). With -R it goes over the control QP as the struct itself ({@link #toRecord}).
 */
record PerftestDest(int lid, int outReads, int qpn, int psn, int rkey, long vaddr, Gid gid, int srqn) {
    /** KEY_MSG_SIZE_GID. */
    static final int MESSAGE_LENGTH = 108;
    /** sizeof(struct pingpong_dest) on x86-64: what rdma_write_keys sends with -R. */
    static final int RECORD_LENGTH = 56;

    /**
     * rdma_write_keys as built with HAVE_ENDIAN (Debian's perftest): lid, out_reads, qpn, psn and
     * rkey as big-endian 32-bit words, 4 bytes of padding (uninitialized in perftest, zeros here),
     * vaddr big-endian at 24, the GID's 16 bytes at 32, srqn and gid_index big-endian at 48 and 52.
     */
    byte[] toRecord(int gidIndex) {
        ByteBuffer b = ByteBuffer.allocate(RECORD_LENGTH);
        b.putInt(lid).putInt(outReads).putInt(qpn).putInt(psn).putInt(rkey).putInt(0).putLong(vaddr);
        for (int i = 0; i < Gid.LENGTH; i++) {
            b.put(gid.byteAt(i));
        }
        b.putInt(srqn).putInt(gidIndex);
        return b.array();
    }

    /** rdma_read_keys (HAVE_ENDIAN): every field but srqn and gid_index, which it does not read (srqn 0 here). */
    static PerftestDest fromRecord(byte[] record) {
        ByteBuffer b = ByteBuffer.wrap(record);
        byte[] gid = new byte[Gid.LENGTH];
        b.get(32, gid);
        return new PerftestDest(b.getInt(0), b.getInt(4), b.getInt(8), b.getInt(12), b.getInt(16), b.getLong(24),
            Gid.of(gid), 0);
    }

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
