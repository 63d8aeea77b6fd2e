package io.jroce.verbs;

/**
 * What a queue pair must know of the one it connects to, as programs exchange it out of band
 * (ibv_rc_pingpong's {@code pingpong_dest}, perftest's destination record, RDMA CM's REQ/REP): its
 * QP number, the first PSN it sends (this side's {@code rq_psn}), its GID, and the UDP port its
 * device listens on (4791, RoCEv2's, unless two jroce devices share one address).
 *
 * @param qpn the peer's 24-bit QP number
 * @param psn the first PSN the peer sends, 24 bits
 * @param gid the peer's GID (its IP address)
 * @param udpPort the peer device's RoCE UDP port, 1 to 65535
 */
public record RemoteQp(int qpn, int psn, Gid gid, int udpPort) {
    /**
     * Checks the fields.
     *
     * @param qpn the peer's 24-bit QP number
     * @param psn the first PSN the peer sends, 24 bits
     * @param gid the peer's GID (its IP address)
     * @param udpPort the peer device's RoCE UDP port, 1 to 65535
     * @throws InvalidAttributeException a QPN or PSN beyond 24 bits, a null GID, a port outside 1..65535
     */
    public RemoteQp {
        if ((qpn & ~0xFFFFFF) != 0) {
            throw new InvalidAttributeException("peer QPN 0x" + Integer.toHexString(qpn) + " is not a 24-bit QP number");
        }
        if ((psn & ~0xFFFFFF) != 0) {
            throw new InvalidAttributeException("peer PSN 0x" + Integer.toHexString(psn) + " is not a 24-bit PSN");
        }
        Arguments.notNull(gid, "peer GID");
        if (udpPort < 1 || udpPort > 0xFFFF) {
            throw new InvalidAttributeException("peer UDP port " + udpPort + " is not in 1..65535");
        }
    }

    /**
     * A peer on RoCEv2's UDP port 4791 (rxe, another host's jroce).
     *
     * @param qpn the peer's QP number
     * @param psn the first PSN the peer sends
     * @param gid the peer's GID
     * @throws InvalidAttributeException as the canonical constructor
     */
    public RemoteQp(int qpn, int psn, Gid gid) {
        this(qpn, psn, gid, AddressVector.ROCE_V2_PORT);
    }

    /**
     * {@code qp}, a queue pair of a device on port 4791 (two devices of one JVM, say).
     *
     * @param qp the peer queue pair
     * @param psn the first PSN it sends
     * @param gid its device's GID
     * @return the peer
     * @throws InvalidAttributeException {@code qp} or {@code gid} is null, or the PSN is beyond 24 bits
     */
    public static RemoteQp of(QueuePair qp, int psn, Gid gid) {
        return new RemoteQp(Arguments.notNull(qp, "peer QP").qpNum(), psn, gid);
    }

    /**
     * {@code qp}, a queue pair of a device on {@code udpPort}.
     *
     * @param qp the peer queue pair
     * @param psn the first PSN it sends
     * @param gid its device's GID
     * @param udpPort its device's RoCE UDP port
     * @return the peer
     * @throws InvalidAttributeException as {@link #of(QueuePair, int, Gid)}, or a port outside 1..65535
     */
    public static RemoteQp of(QueuePair qp, int psn, Gid gid, int udpPort) {
        return new RemoteQp(Arguments.notNull(qp, "peer QP").qpNum(), psn, gid, udpPort);
    }
}
