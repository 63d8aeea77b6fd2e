package io.jroce.verbs.exchange;

import io.jroce.verbs.Arguments;
import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.RemoteQp;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What each side of a perftest run (ib_send_bw, ib_write_lat, ...) tells the other about a queue
 * pair ({@code struct pingpong_dest} of perftest): LID, outstanding READs, QP number, first PSN, and
 * for RDMA the remote key and address of its buffer, the GID and the SRQ number. Over TCP it is the
 * text {@code "%04x:%04x:%06x:%06x:%08x:%016llx:"}, then the GID's 16 bytes each as
 * {@code "%02x:"}, then {@code "%08x:"}, NUL-terminated in {@link #MESSAGE_LENGTH} bytes (perftest's
 * {@code KEY_MSG_SIZE_GID}, as it always has a GID index on RoCE); with {@code -R} it goes over the
 * RDMA CM's control QP as the struct itself, {@link #RECORD_LENGTH} bytes ({@link #toRecord}).
 *
 * @param lid the 16-bit LID (0 on RoCE)
 * @param outReads the READs this side may have outstanding (perftest's {@code out_reads}), 16 bits
 * @param qpn the 24-bit QP number
 * @param psn the first PSN the QP sends, 24 bits
 * @param rkey the remote key of the buffer RDMA goes to or comes from
 * @param vaddr the address of that buffer
 * @param gid the GID of the QP's device
 * @param srqn the SRQ number (0 without one)
 */
public record PerftestDest(int lid, int outReads, int qpn, int psn, int rkey, long vaddr, Gid gid, int srqn) {
    /** KEY_MSG_SIZE_GID: the text and its NUL. */
    public static final int MESSAGE_LENGTH = 108;
    /** sizeof(struct pingpong_dest) on x86-64: what perftest's rdma_write_keys sends with -R. */
    public static final int RECORD_LENGTH = 56;

    /**
     * Checks the fields.
     *
     * @param lid the 16-bit LID
     * @param outReads the outstanding READs, 16 bits
     * @param qpn the 24-bit QP number
     * @param psn the first PSN, 24 bits
     * @param rkey the remote key
     * @param vaddr the buffer's address
     * @param gid the GID
     * @param srqn the SRQ number
     * @throws InvalidAttributeException a field beyond its width, or a null GID
     */
    public PerftestDest {
        Fields.check(lid, 0xFFFF, "LID");
        Fields.check(outReads, 0xFFFF, "out_reads");
        Fields.check(qpn, 0xFFFFFF, "QPN");
        Fields.check(psn, 0xFFFFFF, "PSN");
        Arguments.notNull(gid, "GID");
    }

    /**
     * The text message, as perftest's {@code ethernet_write_keys} writes it.
     *
     * @return {@link #MESSAGE_LENGTH} bytes: the text, then a NUL
     */
    public byte[] toMessage() {
        StringBuilder sb = new StringBuilder(MESSAGE_LENGTH);
        // "%04x:%04x:%06x:%06x:%08x:%016x:", then "%02x:" per GID byte, then "%08x:"
        Fields.appendHex(sb, lid, 4).append(':');
        Fields.appendHex(sb, outReads, 4).append(':');
        Fields.appendHex(sb, qpn, 6).append(':');
        Fields.appendHex(sb, psn, 6).append(':');
        Fields.appendHex(sb, rkey, 8).append(':');
        Fields.appendHex(sb, vaddr, 16).append(':');
        for (int i = 0; i < Gid.LENGTH; i++) {
            Fields.appendHex(sb, gid.byteAt(i) & 0xFF, 2).append(':');
        }
        Fields.appendHex(sb, srqn, 8).append(':');
        byte[] ascii = sb.toString().getBytes(StandardCharsets.US_ASCII);
        byte[] message = new byte[MESSAGE_LENGTH];
        System.arraycopy(ascii, 0, message, 0, Math.min(ascii.length, MESSAGE_LENGTH - 1));
        return message;
    }

    /**
     * Reads a peer's text message field by field (hex), as perftest's {@code ethernet_read_keys} does.
     *
     * @param message the peer's message
     * @return the peer's address
     * @throws IllegalArgumentException a null or malformed message, saying what it was
     */
    public static PerftestDest parse(byte[] message) {
        String text = Fields.text(message);
        String[] f = text.split(":", -1);
        if (f.length < 23) {
            throw new IllegalArgumentException("malformed key message '" + text + "'");
        }
        try {
            byte[] gid = new byte[Gid.LENGTH];
            for (int i = 0; i < Gid.LENGTH; i++) {
                int b = Fields.hex(f[6 + i]);
                Fields.check(b, 0xFF, "GID byte");
                gid[i] = (byte) b;
            }
            return new PerftestDest(Fields.hex(f[0]), Fields.hex(f[1]), Fields.hex(f[2]), Fields.hex(f[3]),
                Fields.hex(f[4]), Long.parseUnsignedLong(f[5].trim(), 16), Gid.of(gid), Fields.hex(f[22]));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("malformed key message '" + text + "'", e);
        }
    }

    /**
     * The binary record of {@code -R}, as perftest's {@code rdma_write_keys} builds it where it has
     * {@code HAVE_ENDIAN} (Debian's perftest): lid, out_reads, qpn, psn and rkey as big-endian 32-bit
     * words, 4 bytes of padding (zeros here), vaddr big-endian at 24, the GID's 16 bytes at 32, srqn
     * and the GID index big-endian at 48 and 52.
     *
     * @param gidIndex the sender's GID index
     * @return {@link #RECORD_LENGTH} bytes
     */
    public byte[] toRecord(int gidIndex) {
        ByteBuffer b = ByteBuffer.allocate(RECORD_LENGTH);
        b.putInt(lid).putInt(outReads).putInt(qpn).putInt(psn).putInt(rkey).putInt(0).putLong(vaddr);
        for (int i = 0; i < Gid.LENGTH; i++) {
            b.put(gid.byteAt(i));
        }
        b.putInt(srqn).putInt(gidIndex);
        return b.array();
    }

    /**
     * Reads a peer's binary record as perftest's {@code rdma_read_keys} does: every field but srqn
     * and the GID index, which it does not read (srqn is 0 here).
     *
     * @param record the peer's record
     * @return the peer's address
     * @throws IllegalArgumentException a null record, one shorter than {@link #RECORD_LENGTH}, or one whose
     *         fields do not fit their widths
     */
    public static PerftestDest fromRecord(byte[] record) {
        if (record == null || record.length < RECORD_LENGTH) {
            throw new IllegalArgumentException("a key record has " + RECORD_LENGTH + " bytes, not "
                + (record == null ? "null" : Integer.toString(record.length)));
        }
        ByteBuffer b = ByteBuffer.wrap(record);
        byte[] gid = new byte[Gid.LENGTH];
        b.get(32, gid);
        try {
            return new PerftestDest(b.getInt(0), b.getInt(4), b.getInt(8), b.getInt(12), b.getInt(16), b.getLong(24),
                Gid.of(gid), 0);
        } catch (InvalidAttributeException e) {
            throw new IllegalArgumentException("malformed key record: " + e.getMessage(), e);
        }
    }

    /**
     * The peer this address describes, on RoCEv2's UDP port 4791, for {@link io.jroce.verbs.QpConnector}.
     *
     * @return the remote QP
     */
    public RemoteQp toRemoteQp() {
        return new RemoteQp(qpn, psn, gid);
    }
}
