package io.jroce.verbs;

/** Work completion status; names and order as enum ibv_wc_status (IBTA Vol. 1 section 11.6.2). */
public enum WcStatus {
    /** The work request completed successfully. */
    SUCCESS,
    /** Local length error: a message did not fit the receive buffers, or a request exceeded the QP's limits. */
    LOC_LEN_ERR,
    /** Local QP operation error: the request was inconsistent with the QP (e.g. a UD message longer than the path MTU). */
    LOC_QP_OP_ERR,
    /** Local EE context operation error (Reliable Datagram only; not reported by jroce). */
    LOC_EEC_OP_ERR,
    /** Local protection error: a buffer of the request lies outside its memory region or uses a bad lkey. */
    LOC_PROT_ERR,
    /** Flushed: the QP was in, or went to, the error state before the request was processed. */
    WR_FLUSH_ERR,
    /** Memory window bind error: the bind was invalid for the window or the region. */
    MW_BIND_ERR,
    /** Bad response: the responder answered with an unexpected opcode or length. */
    BAD_RESP_ERR,
    /** Local access error: an incoming RDMA WRITE with immediate or SEND hit a local protection error. */
    LOC_ACCESS_ERR,
    /** Remote invalid request: the responder found the request invalid (e.g. too long for its receive, or an operation the QP does not allow). */
    REM_INV_REQ_ERR,
    /** Remote access error: the responder refused the rkey, range or access of an RDMA or atomic request. */
    REM_ACCESS_ERR,
    /** Remote operation error: the responder could not complete the operation. */
    REM_OP_ERR,
    /** Transport retry counter exceeded: no acknowledgement came through retry_cnt retransmissions. */
    RETRY_EXC_ERR,
    /** RNR retry counter exceeded: the responder answered receiver-not-ready through rnr_retry retries. */
    RNR_RETRY_EXC_ERR,
    /** Local RDD violation (Reliable Datagram only; not reported by jroce). */
    LOC_RDD_VIOL_ERR,
    /** Remote invalid RD request (Reliable Datagram only; not reported by jroce). */
    REM_INV_RD_REQ_ERR,
    /** Remote aborted: the responder aborted the operation. */
    REM_ABORT_ERR,
    /** Invalid EE context number (Reliable Datagram only; not reported by jroce). */
    INV_EECN_ERR,
    /** Invalid EE context state (Reliable Datagram only; not reported by jroce). */
    INV_EEC_STATE_ERR,
    /** Fatal error of the device. */
    FATAL_ERR,
    /** Response timeout. */
    RESP_TIMEOUT_ERR,
    /** Any other error. */
    GENERAL_ERR;

    private static final WcStatus[] BY_CODE = values();

    /**
     * The status's value in libibverbs.
     *
     * @return the value of IBV_WC_&lt;name&gt; (what ibv_wc_status_str and rdma-core's tools print)
     */
    public int code() {
        return ordinal();
    }

    /**
     * The status of a libibverbs value.
     *
     * @param code a value of enum ibv_wc_status
     * @return the status whose {@link #code()} is {@code code}
     * @throws IllegalArgumentException no status has that value
     */
    public static WcStatus fromCode(int code) {
        if (code < 0 || code >= BY_CODE.length) {
            throw new IllegalArgumentException("no ibv_wc_status " + code);
        }
        return BY_CODE[code];
    }
}
