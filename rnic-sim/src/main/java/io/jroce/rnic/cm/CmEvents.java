package io.jroce.rnic.cm;

/**
 * What a {@link ConnectionManager} reports to the consumer of a connection (a listener's or a
 * connect's): the seam the librdmacm-shaped API will sit on. Every method is called on the I/O
 * thread, where the consumer may answer at once with the manager's methods. The arguments are the
 * consumer's to keep.
 */
public interface CmEvents {
    /**
     * Passive: a REQ for a listened service made {@code c}; answer with accept or reject.
     *
     * @param c the connection
     * @param request what the REQ asked for
     */
    default void onConnectRequest(CmConnection c, ConnectRequest request) {
    }

    /**
     * Active: the REP arrived; move the QP to RTR and RTS, then answer with ready (RTU) or reject.
     *
     * @param c the connection
     * @param reply what the REP carried
     */
    default void onReply(CmConnection c, ConnectReply reply) {
    }

    /**
     * The connection is up: the active side sent its RTU, or the passive side received it.
     *
     * @param c the connection
     */
    default void onEstablished(CmConnection c) {
    }

    /**
     * The peer rejected the connection (the REJ's reason, IBTA 12.6.7): {@code c} is gone,
     * or in TimeWait when the REJ came after the REP or said stale connection (10).
     *
     * @param c the connection
     * @param reason the REJ's reason code
     */
    default void onRejected(CmConnection c, int reason) {
    }

    /**
     * The REQ, REP or SIDR_REQ went unanswered through every retry; {@code c} is gone.
     *
     * @param c the connection
     */
    default void onUnreachable(CmConnection c) {
    }

    /**
     * The connection is going down: a DREQ arrived (answer with disconnect, which sends the DREP),
     * or the DREP to this side's DREQ arrived, or the DREQ went unanswered through every retry.
     *
     * @param c the connection
     */
    default void onDisconnected(CmConnection c) {
    }

    /**
     * Passive UD: a SIDR_REQ for a listened service made {@code c} (state SIDR_REQ_RCVD); answer with
     * {@link ConnectionManager#sidrAccept} or {@link ConnectionManager#sidrReject}.
     *
     * @param c the connection
     * @param request what the SIDR_REQ asked for
     */
    default void onSidrRequest(CmConnection c, SidrRequest request) {
    }

    /**
     * Active UD: the SIDR_REP arrived; {@code c} is done (the kernel's ID goes back to IDLE). Status 0
     * means the reply's QPN and Q_Key serve the service.
     *
     * @param c the connection
     * @param reply what the SIDR_REP carried
     */
    default void onSidrReply(CmConnection c, SidrReply reply) {
    }

    /**
     * TimeWait ended: {@code c} has left the manager and its QP may be reused.
     *
     * @param c the connection
     */
    default void onTimeWaitExit(CmConnection c) {
    }
}
