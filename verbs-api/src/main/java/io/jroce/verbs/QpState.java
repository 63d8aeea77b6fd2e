package io.jroce.verbs;

/** Queue pair states of IBTA Vol. 1 section 10.3.1 (the ibv_qp_state enum order). */
public enum QpState {
    /** Just created or reset: no work is processed. */
    RESET,
    /** Initialized: receives may be posted, nothing is processed yet. */
    INIT,
    /** Ready To Receive: incoming packets are processed, nothing is sent. */
    RTR,
    /** Ready To Send: the QP sends and receives. */
    RTS,
    /** Send Queue Drain: no new send requests are started. */
    SQD,
    /** Send Queue Error: a send request completed in error; receives still work (UC and UD). */
    SQE,
    /** Error: every outstanding and new work request completes with a flush error. */
    ERR
}
