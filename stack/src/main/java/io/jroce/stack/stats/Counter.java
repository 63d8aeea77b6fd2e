package io.jroce.stack.stats;

/**
 * Every counter a jroce device keeps. The first group carries the names of rxe's hw_counters
 * (drivers/infiniband/sw/rxe/rxe_hw_counters.c) so that tools comparing the two line up; the
 * drop counters say why a received packet was discarded.
 */
public enum Counter {
    /** Packets the device sent, ACKs and READ responses included. */
    SENT_PKTS("sent_pkts"),
    /** Packets the device received and accepted. */
    RCVD_PKTS("rcvd_pkts"),
    /** Requests the responder received again (a PSN it already executed): answered, never executed twice. */
    DUPLICATE_REQUEST("duplicate_request"),
    /** Requests the responder received with a PSN beyond the one it expects (a gap): answered with a PSN sequence error NAK. */
    OUT_OF_SEQ_REQUEST("out_of_seq_request"),
    /** RNR NAKs the requester received. */
    RCVD_RNR_ERR("rcvd_rnr_err"),
    /** RNR NAKs the responder sent (a SEND found no receive posted). */
    SEND_RNR_ERR("send_rnr_err"),
    /** PSN sequence errors the requester learned of: a sequence error NAK, or an implicit NAK (a response that skipped PSNs). */
    RCVD_SEQ_ERR("rcvd_seq_err"),
    /** rxe's name, kept so that the lists line up; jroce never increments it. */
    ACK_DEFERRED("ack_deferred"),
    /** Work requests failed with RETRY_EXC_ERR: the retry count ran out. */
    RETRY_EXCEEDED_ERR("retry_exceeded_err"),
    /** Work requests failed with RNR_RETRY_EXC_ERR: the RNR retry count ran out. */
    RNR_RETRY_EXCEEDED_ERR("retry_rnr_exceeded_err"),
    /** Retries the requester started after a timeout or a sequence error (each uses one of the retry count). */
    COMPLETER_RETRY_ERR("completer_retry_err"),
    /** rxe's name, kept so that the lists line up; jroce never increments it (failed sends are {@link #DROP_TX_FAILED}). */
    SEND_ERR("send_err"),
    /** SEND work requests the requester started (with immediate or invalidate included). */
    RDMA_SENDS("rdma_sends"),
    /** Messages that completed a receive (SENDs, and RDMA WRITEs with immediate). */
    RDMA_RECVS("rdma_recvs"),
    /** Payload bytes the device sent. */
    SENT_BYTES("sent_bytes"),
    /** Payload bytes the device received and accepted. */
    RCVD_BYTES("rcvd_bytes"),
    /** Request packets the requester sent again. */
    RETRANSMITTED_PKTS("retransmitted_pkts"),
    /** MADs the GSI (QP1) accepted: well-formed, of a class the device handles (IBTA 13.4). */
    RCVD_MADS("rcvd_mads"),
    /** MADs the GSI sent for its handler (the CM). */
    SENT_MADS("sent_mads"),

    /** A datagram too short for the headers its opcode calls for. */
    DROP_TRUNCATED("drop_truncated"),
    /** A datagram longer than the transport's largest (a RoCE packet of MTU 4096 and its headers). */
    DROP_OVERSIZED("drop_oversized"),
    /** A packet whose ICRC does not verify. */
    DROP_BAD_ICRC("drop_bad_icrc"),
    /** A BTH opcode the opcode table does not have, or one the receiving QP does not take. */
    DROP_UNKNOWN_OPCODE("drop_unknown_opcode"),
    /** A BTH transport header version other than 0. */
    DROP_BAD_TVER("drop_bad_tver"),
    /** A BTH pad count that does not bring the payload to a multiple of 4 bytes (RocePacket#wrap). */
    DROP_BAD_PAD("drop_bad_pad"),
    /** A BTH P_Key other than the default partition's, the only one a jroce device has. */
    DROP_BAD_PKEY("drop_bad_pkey"),
    /** A destination QP number with no QP behind it (or no attached QP for a multicast group). */
    DROP_UNKNOWN_QPN("drop_unknown_qpn"),
    /** An opcode of another transport than the QP's (e.g. a UC opcode for an RC QP). */
    DROP_WRONG_QP_TYPE("drop_wrong_qp_type"),
    /** A packet for a QP in a state that takes none (before RTR, for one). */
    DROP_WRONG_QP_STATE("drop_wrong_qp_state"),
    /** A packet for a connected QP from another address than its peer's, or to another than its own. */
    DROP_WRONG_ADDRESS("drop_wrong_address"),
    /** rxe's name, kept so that the lists line up; jroce never increments it. */
    DROP_NOT_FOR_THIS_DEVICE("drop_not_for_this_device"),
    /** A response whose payload length is not what the request calls for. */
    DROP_BAD_LENGTH("drop_bad_length"),
    /** A response that answers nothing outstanding. */
    DROP_UNEXPECTED_RESPONSE("drop_unexpected_response"),
    /** A packet to send from an address the device does not have, or between address families. */
    DROP_NO_ROUTE("drop_no_route"),
    /** UD: the DETH's Q_Key is not the QP's (a Q_Key violation: the datagram is silently dropped, as rxe's check_keys drops it). */
    DROP_BAD_QKEY("drop_bad_qkey"),
    /** UC/UD: a message arrived with no receive WQE posted (no RNR NAK exists without acknowledgements). */
    DROP_NO_RECV_WQE("drop_no_recv_wqe"),
    /** UC: packets of a message whose earlier packet was lost, or that broke the opcode sequence (IBTA 9.8.2). */
    DROP_UC_MESSAGE("drop_uc_message"),
    /** UC: a request the responder refused (bad R_Key, bounds, permission); UC has no NAK to report it. */
    DROP_UC_ACCESS("drop_uc_access"),
    /** RC: a duplicate RDMA READ request that matches no READ the responder executed (never replayed). */
    DROP_UNMATCHED_READ("drop_unmatched_read"),
    /** To QP1 (the GSI): not a UD SEND Only whose payload is exactly one 256-byte MAD (IBTA 13.4.2). */
    DROP_BAD_MAD("drop_bad_mad"),
    /** To QP1: a MAD of a base version or management class the device does not handle (only the CM's). */
    DROP_UNSUPPORTED_MAD("drop_unsupported_mad"),
    /** To QP1: a valid MAD while no handler (no CM) is registered on the GSI. */
    DROP_NO_MAD_HANDLER("drop_no_mad_handler"),
    /** A packet the transport could not send (malformed, or the socket's queue full or closed). */
    DROP_TX_FAILED("drop_tx_failed"),
    /** CM (IBTA 12): a CM MAD of another class version or method, an attribute the CM does not handle, or a bad field. */
    CM_DROP_BAD_MAD("cm_drop_bad_mad"),
    /** CM: a message whose communication IDs match no connection (and that needs no answer, as a DREQ does). */
    CM_DROP_UNMATCHED("cm_drop_unmatched"),
    /** CM: a message the connection's state does not take (a repeat already answered, a DREQ for another QP). */
    CM_DROP_UNEXPECTED("cm_drop_unexpected"),
    /**
     * CM: a REQ for a listening RDMA CM ID whose backlog of unread CONNECT_REQUEST events is full,
     * forgotten unanswered as the kernel's ucma does (the peer's retry may find room).
     */
    CM_DROP_BACKLOG("cm_drop_backlog"),
    /** CM messages received and sent, by attribute (as the kernel's cm_rx_msgs / cm_tx_msgs in sysfs): retransmissions count again. */
    CM_RX_REQ("cm_rx_req"),
    /** CM MRA messages received. */
    CM_RX_MRA("cm_rx_mra"),
    /** CM REJ messages received. */
    CM_RX_REJ("cm_rx_rej"),
    /** CM REP messages received. */
    CM_RX_REP("cm_rx_rep"),
    /** CM RTU messages received. */
    CM_RX_RTU("cm_rx_rtu"),
    /** CM DREQ messages received. */
    CM_RX_DREQ("cm_rx_dreq"),
    /** CM DREP messages received. */
    CM_RX_DREP("cm_rx_drep"),
    /** CM SIDR_REQ messages received. */
    CM_RX_SIDR_REQ("cm_rx_sidr_req"),
    /** CM SIDR_REP messages received. */
    CM_RX_SIDR_REP("cm_rx_sidr_rep"),
    /** CM REQ messages sent. */
    CM_TX_REQ("cm_tx_req"),
    /** CM MRA messages sent. */
    CM_TX_MRA("cm_tx_mra"),
    /** CM REJ messages sent. */
    CM_TX_REJ("cm_tx_rej"),
    /** CM REP messages sent. */
    CM_TX_REP("cm_tx_rep"),
    /** CM RTU messages sent. */
    CM_TX_RTU("cm_tx_rtu"),
    /** CM DREQ messages sent. */
    CM_TX_DREQ("cm_tx_dreq"),
    /** CM DREP messages sent. */
    CM_TX_DREP("cm_tx_drep"),
    /** CM SIDR_REQ messages sent. */
    CM_TX_SIDR_REQ("cm_tx_sidr_req"),
    /** CM SIDR_REP messages sent. */
    CM_TX_SIDR_REP("cm_tx_sidr_rep"),
    /** CM: REQ, REP, DREQ and SIDR_REQ sent again after their timer expired with no answer. */
    CM_RETRANSMITS("cm_retransmits"),
    /**
     * CM: a REQ or REP from a peer QP (QPN and CA GUID) that still has a connection here, answered with
     * REJ 10 while the old connection gets a DREQ (the kernel's stale-connection check).
     */
    CM_STALE_CONNECTIONS("cm_stale_connections"),
    /** CM: a REQ whose primary path GID is not the address it came from, answered with REJ 12 (invalid GID). */
    CM_REJ_INVALID_GID("cm_rej_invalid_gid"),
    /** A packet whose handling raised an exception (a bug): dropped, and the I/O thread goes on. */
    DROP_INTERNAL_ERROR("drop_internal_error");

    private final String counterName;
    private final boolean drop;

    Counter(String counterName) {
        this.counterName = counterName;
        this.drop = counterName.startsWith("drop_") || counterName.startsWith("cm_drop_");
    }

    /** {@return whether the counter counts discarded packets or messages (its name starts with drop_ or cm_drop_)} */
    public boolean isDrop() {
        return drop;
    }

    /**
     * The name shown by the API and {@code jroce devinfo -v}.
     *
     * @return the name
     */
    public String counterName() {
        return counterName;
    }
}
