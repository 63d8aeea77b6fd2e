package io.jroce.verbs;

/** Queue pair states of IBTA Vol. 1 section 10.3.1 (the ibv_qp_state enum order). */
public enum QpState {
    RESET, INIT, RTR, RTS, SQD, SQE, ERR
}
