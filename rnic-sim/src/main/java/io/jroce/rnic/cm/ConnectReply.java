package io.jroce.rnic.cm;

/**
 * A REP as the active side's consumer sees it ({@code cm_format_rep_event}), responder resources and
 * initiator depth swapped into this side's view.
 *
 * @param remoteQpn          the passive side's QP: this side's QP's destination
 * @param startingPsn        the PSN the passive side's QP expects first: this side's QP sends from it (its SQ
 *                           PSN at RTS; {@code cm_rep_handler} sets {@code sq_psn} from it)
 * @param responderResources this side's responder resources: the REP's initiator depth
 * @param initiatorDepth     this side's initiator depth: the REP's responder resources
 * @param rnrRetryCount      the RNR retry count for this side's requester
 * @param targetAckDelay     the passive CA's ACK delay exponent
 * @param remoteCaGuid       the passive side's CA GUID
 * @param privateData        the REP's whole private data field (196 bytes)
 */
public record ConnectReply(int remoteQpn, int startingPsn, int responderResources, int initiatorDepth,
                           int rnrRetryCount, int targetAckDelay, long remoteCaGuid, byte[] privateData) {
}
