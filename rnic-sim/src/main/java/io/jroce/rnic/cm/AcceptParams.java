package io.jroce.rnic.cm;

/**
 * What the passive side's REP carries (IBTA 12.6.8), as the CMA fills it ({@code cma_accept_ib}).
 *
 * @param localQpn           the RC QP this side connects
 * @param startingPsn        the PSN this side's QP expects first (its RQ PSN at RTR); the active side sends
 *                           from it ({@code cm_rep_handler} makes it the active side's {@code sq_psn}); 24 bits
 * @param responderResources RDMA READs and atomics this side serves at once
 * @param initiatorDepth     RDMA READs and atomics this side has outstanding at once
 * @param rnrRetryCount      RNR retries the active side's requester should make (clamped to 7)
 * @param privateData        at most {@link #MAX_PRIVATE_DATA} bytes, or an empty array
 */
public record AcceptParams(int localQpn, int startingPsn, int responderResources, int initiatorDepth,
                           int rnrRetryCount, byte[] privateData) {
    /** The REP's private data field (IBTA 12.6.8). */
    public static final int MAX_PRIVATE_DATA = io.jroce.stack.mad.CmRepFlyweight.PRIVATE_DATA_LENGTH;
}
