package io.jroce.verbs;

/** Operation of a send work request (enum ibv_wr_opcode). */
public enum WrOpcode {
    RDMA_WRITE(WcOpcode.RDMA_WRITE),
    RDMA_WRITE_WITH_IMM(WcOpcode.RDMA_WRITE),
    SEND(WcOpcode.SEND),
    SEND_WITH_IMM(WcOpcode.SEND),
    RDMA_READ(WcOpcode.RDMA_READ),
    ATOMIC_CMP_AND_SWP(WcOpcode.COMP_SWAP),
    ATOMIC_FETCH_AND_ADD(WcOpcode.FETCH_ADD),
    /** LOCAL_INV: invalidates a type 2 memory window's rkey on this side (a Local Invalidate work request, IBTA Vol. 1 chapter 10 on memory windows). */
    LOCAL_INV(WcOpcode.LOCAL_INV),
    /** BIND_MW: binds a memory window to a region of an MR (IBTA 10.6.7). */
    BIND_MW(WcOpcode.BIND_MW),
    /** SEND with invalidate: the responder invalidates {@link SendWorkRequest#invalidateRkey()} (the rkey travels in the packet's IETH). */
    SEND_WITH_INV(WcOpcode.SEND);

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

    /** Operations the RNIC performs locally, sending nothing. */
    public boolean isLocal() {
        return this == LOCAL_INV || this == BIND_MW;
    }

    public boolean hasImmediate() {
        return this == RDMA_WRITE_WITH_IMM || this == SEND_WITH_IMM;
    }
}
