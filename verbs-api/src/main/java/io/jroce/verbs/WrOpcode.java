package io.jroce.verbs;

/** Operation of a send work request (enum ibv_wr_opcode). */
public enum WrOpcode {
    RDMA_WRITE(WcOpcode.RDMA_WRITE),
    RDMA_WRITE_WITH_IMM(WcOpcode.RDMA_WRITE),
    SEND(WcOpcode.SEND),
    SEND_WITH_IMM(WcOpcode.SEND),
    RDMA_READ(WcOpcode.RDMA_READ),
    ATOMIC_CMP_AND_SWP(WcOpcode.COMP_SWAP),
    ATOMIC_FETCH_AND_ADD(WcOpcode.FETCH_ADD);

    private final WcOpcode completionOpcode;

    WrOpcode(WcOpcode completionOpcode) {
        this.completionOpcode = completionOpcode;
    }

    /** The opcode its send completion carries. */
    public WcOpcode completionOpcode() {
        return completionOpcode;
    }

    public boolean isAtomic() {
        return this == ATOMIC_CMP_AND_SWP || this == ATOMIC_FETCH_AND_ADD;
    }

    public boolean hasImmediate() {
        return this == RDMA_WRITE_WITH_IMM || this == SEND_WITH_IMM;
    }
}
