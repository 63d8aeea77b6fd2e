package io.jroce.verbs;

/** Work completion status; names and order as enum ibv_wc_status (IBTA Vol. 1 section 11.6.2). */
public enum WcStatus {
    SUCCESS,
    LOC_LEN_ERR,
    LOC_QP_OP_ERR,
    LOC_EEC_OP_ERR,
    LOC_PROT_ERR,
    WR_FLUSH_ERR,
    MW_BIND_ERR,
    BAD_RESP_ERR,
    LOC_ACCESS_ERR,
    REM_INV_REQ_ERR,
    REM_ACCESS_ERR,
    REM_OP_ERR,
    RETRY_EXC_ERR,
    RNR_RETRY_EXC_ERR,
    LOC_RDD_VIOL_ERR,
    REM_INV_RD_REQ_ERR,
    REM_ABORT_ERR,
    INV_EECN_ERR,
    INV_EEC_STATE_ERR,
    FATAL_ERR,
    RESP_TIMEOUT_ERR,
    GENERAL_ERR;

    private static final WcStatus[] BY_CODE = values();

    /** The value of IBV_WC_&lt;name&gt; in libibverbs (what ibv_wc_status_str and rdma-core's tools print). */
    public int code() {
        return ordinal();
    }

    /** The status whose {@link #code()} is {@code code}; throws {@link IllegalArgumentException} for any other number. */
    public static WcStatus fromCode(int code) {
        if (code < 0 || code >= BY_CODE.length) {
            throw new IllegalArgumentException("no ibv_wc_status " + code);
        }
        return BY_CODE[code];
    }
}
