package io.jroce.rnic.cm;

/**
 * What the active side's REQ carries (IBTA 12.6.5), as the CMA fills it ({@code cma_connect_ib}).
 * The GIDs are the IP addresses (IPv4-mapped for IPv4); the port and the path's fixed values (LIDs
 * 0xFFFF, hop limit 64, timeouts) are the manager's.
 *
 * @param serviceId          the service to connect to (e.g. {@link ConnectionManager#tcpServiceId})
 * @param localGid           this device's GID the REQ leaves from
 * @param peerGid            the passive side's GID
 * @param localQpn           the RC QP this side connects
 * @param startingPsn        the PSN this side's QP expects first (its RQ PSN at RTR); the passive side sends
 *                           from it ({@code ib_send_cm_req} keeps it as {@code rq_psn}); 24 bits
 * @param responderResources RDMA READs and atomics this side serves at once
 * @param initiatorDepth     RDMA READs and atomics this side has outstanding at once
 * @param retryCount         transport retries (clamped to 7 as the CMA does)
 * @param rnrRetryCount      RNR retries (clamped to 7)
 * @param pathMtu            IBA MTU code 1..5 (3 is 1024)
 * @param privateData        the REQ's private data: the 36-byte RDMA CM header then the
 *                           application's, at most {@link #MAX_PRIVATE_DATA} bytes
 * @param trafficClass       the path's traffic class (the ID's type of service; 0 by default)
 * @param packetLifeTime     the path's packet life time ({@link CmTimeouts#PACKET_LIFE_TIME}, or the ID's
 *                           ACK timeout - 1): the REQ's local ACK timeout and retry interval follow from it
 */
public record ConnectParams(long serviceId, byte[] localGid, byte[] peerGid, int localQpn, int startingPsn,
                            int responderResources, int initiatorDepth, int retryCount, int rnrRetryCount, int pathMtu,
                            byte[] privateData, int trafficClass, int packetLifeTime) {
    /** The REQ's private data field (IBTA 12.6.5): 92 bytes, of which the RDMA CM header takes 36. */
    public static final int MAX_PRIVATE_DATA = io.jroce.stack.mad.CmReqFlyweight.PRIVATE_DATA_LENGTH;

    /**
     * A REQ on the default RoCE path: traffic class 0, packet life time {@link CmTimeouts#PACKET_LIFE_TIME}.
     *
     * @param serviceId the service to connect to
     * @param localGid this device's GID the REQ leaves from
     * @param peerGid the passive side's GID
     * @param localQpn the RC QP this side connects
     * @param startingPsn the PSN this side's QP expects first
     * @param responderResources RDMA READs and atomics this side serves at once
     * @param initiatorDepth RDMA READs and atomics this side has outstanding at once
     * @param retryCount transport retries
     * @param rnrRetryCount RNR retries
     * @param pathMtu IBA MTU code 1..5
     * @param privateData the REQ's private data
     */
    public ConnectParams(long serviceId, byte[] localGid, byte[] peerGid, int localQpn, int startingPsn,
                         int responderResources, int initiatorDepth, int retryCount, int rnrRetryCount, int pathMtu,
                         byte[] privateData) {
        this(serviceId, localGid, peerGid, localQpn, startingPsn, responderResources, initiatorDepth, retryCount,
            rnrRetryCount, pathMtu, privateData, 0, CmTimeouts.PACKET_LIFE_TIME);
    }
}
