package io.jroce.rnic.cm;

/**
 * A REQ as the passive side's consumer sees it ({@code cm_format_req_event}): the peer's values,
 * with responder resources and initiator depth swapped into this side's view (what this side may
 * serve is what the peer may have outstanding).
 *
 * @param serviceId          the service the REQ asked for
 * @param remoteQpn          the active side's QP: this side's QP's destination
 * @param startingPsn        the PSN the active side's QP expects first: this side's QP sends from it (its SQ
 *                           PSN at RTS), as the kernel's {@code sq_psn} on the passive side
 * @param responderResources this side's responder resources: the REQ's initiator depth
 * @param initiatorDepth     this side's initiator depth: the REQ's responder resources
 * @param retryCount         the transport retry count the REQ asks for
 * @param rnrRetryCount      the RNR retry count the REQ asks for
 * @param pathMtu            the path MTU code
 * @param remoteCaGuid       the active side's CA GUID
 * @param privateData        the REQ's whole private data field (92 bytes, the RDMA CM header first)
 * @param requestedGid       the REQ's primary remote port GID: the GID of this side the active side asked
 *                           for (16 bytes), which the CMA checks against the GID the REQ arrived on
 * @param trafficClass       the REQ's primary path traffic class: this side's QP's GRH takes it
 *                           ({@code cm_format_path_from_req})
 * @param localAckTimeout    the REQ's primary local ACK timeout: this side's QP's ACK timeout unless its
 *                           ID sets one (the path's packet life time is it - 1, the QP's timeout that + 1)
 */
public record ConnectRequest(long serviceId, int remoteQpn, int startingPsn, int responderResources,
                             int initiatorDepth, int retryCount, int rnrRetryCount, int pathMtu, long remoteCaGuid,
                             byte[] privateData, byte[] requestedGid, int trafficClass, int localAckTimeout) {
}
