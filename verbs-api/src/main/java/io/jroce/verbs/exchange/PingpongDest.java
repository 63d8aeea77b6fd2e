package io.jroce.verbs.exchange;

import io.jroce.verbs.Arguments;
import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RemoteQp;
import java.nio.charset.StandardCharsets;

/**
 * What each side of rdma-core's ibv_rc_pingpong, ibv_uc_pingpong, ibv_ud_pingpong and
 * ibv_srq_pingpong tells the other about a queue pair ({@code struct pingpong_dest}): LID, QP
 * number, first PSN and GID. On the wire it is the text {@code "%04x:%06x:%06x:%s"} with the GID as
 * 32 hex digits ({@code gid_to_wire_gid}), NUL-terminated, in a message of {@link #MESSAGE_LENGTH}
 * bytes. RoCE has no LIDs: the LID is 0.
 *
 * @param lid the 16-bit LID (0 on RoCE)
 * @param qpn the 24-bit QP number
 * @param psn the first PSN the QP sends, 24 bits
 * @param gid the GID of the QP's device (its IP address)
 */
public record PingpongDest(int lid, int qpn, int psn, Gid gid) {
    /** {@code sizeof "0000:000000:000000:00000000000000000000000000000000"}: the text and its NUL. */
    public static final int MESSAGE_LENGTH = 52;

    /**
     * Checks the fields.
     *
     * @param lid the 16-bit LID (0 on RoCE)
     * @param qpn the 24-bit QP number
     * @param psn the first PSN the QP sends, 24 bits
     * @param gid the GID of the QP's device
     * @throws InvalidAttributeException a field beyond its width, or a null GID
     */
    public PingpongDest {
        Fields.check(lid, 0xFFFF, "LID");
        Fields.check(qpn, 0xFFFFFF, "QPN");
        Fields.check(psn, 0xFFFFFF, "PSN");
        Arguments.notNull(gid, "GID");
    }

    /**
     * {@code qp}'s address on RoCE (LID 0).
     *
     * @param qp the queue pair
     * @param psn the first PSN it sends
     * @param gid its device's GID
     * @return the address
     * @throws InvalidAttributeException a null argument, or a PSN beyond 24 bits
     */
    public static PingpongDest of(QueuePair qp, int psn, Gid gid) {
        return new PingpongDest(0, Arguments.notNull(qp, "QP").qpNum(), psn, gid);
    }

    /**
     * The message as ibv_rc_pingpong writes it.
     *
     * @return {@link #MESSAGE_LENGTH} bytes: the text, then NULs
     */
    public byte[] toMessage() {
        String text = String.format("%04x:%06x:%06x:%s", lid, qpn, psn, gid.toWireHex());
        byte[] message = new byte[MESSAGE_LENGTH];
        byte[] ascii = text.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(ascii, 0, message, 0, Math.min(ascii.length, MESSAGE_LENGTH - 1));
        return message;
    }

    /**
     * Reads a peer's message as {@code sscanf("%x:%x:%x:%s")} and {@code wire_gid_to_gid} do, up to
     * its first NUL, except that anything malformed is an error rather than a zero.
     *
     * @param message the peer's message
     * @return the peer's address
     * @throws IllegalArgumentException a null or malformed message, saying what it was
     */
    public static PingpongDest parse(byte[] message) {
        String text = Fields.text(message);
        String[] fields = text.split(":", 4);
        if (fields.length != 4) {
            throw new IllegalArgumentException("malformed address message '" + text + "'");
        }
        try {
            return new PingpongDest(Fields.hex(fields[0]), Fields.hex(fields[1]), Fields.hex(fields[2]),
                Gid.fromWireHex(fields[3].trim()));
        } catch (NumberFormatException | InvalidAttributeException e) {
            throw new IllegalArgumentException("malformed address message '" + text + "'", e);
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

    /**
     * As {@link #toRemoteQp()}, with the UDP port of the peer's device (two jroce devices sharing an address).
     *
     * @param udpPort the peer device's RoCE UDP port
     * @return the remote QP
     * @throws InvalidAttributeException a port outside 1..65535
     */
    public RemoteQp toRemoteQp(int udpPort) {
        return new RemoteQp(qpn, psn, gid, udpPort);
    }

    /**
     * Whether the GID's interface ID (its low 8 bytes) is non-zero: ibv_rc_pingpong gives the
     * address vector a GRH only then, and RoCE cannot go without one.
     *
     * @return whether a GRH can be built towards this GID
     */
    public boolean hasGlobalRoute() {
        for (int i = 8; i < Gid.LENGTH; i++) {
            if (gid.byteAt(i) != 0) {
                return true;
            }
        }
        return false;
    }
}
