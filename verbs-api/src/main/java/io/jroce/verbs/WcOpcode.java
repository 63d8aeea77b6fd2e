package io.jroce.verbs;

/** Opcode of a work completion (enum ibv_wc_opcode). */
public enum WcOpcode {
    SEND, RDMA_WRITE, RDMA_READ, COMP_SWAP, FETCH_ADD, BIND_MW, LOCAL_INV,
    /** A receive completion. */
    RECV,
    /** A receive completion consumed by an RDMA WRITE with immediate. */
    RECV_RDMA_WITH_IMM
}
