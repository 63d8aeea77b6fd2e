package io.jroce.verbs;

/** Operation of a send work request (enum ibv_wr_opcode). */
public enum WrOpcode {
    /** Writes local data into the peer's memory at a remote address and rkey. */
    RDMA_WRITE(WcOpcode.RDMA_WRITE),
    /** An RDMA WRITE whose immediate data consumes a receive at the peer. */
    RDMA_WRITE_WITH_IMM(WcOpcode.RDMA_WRITE),
    /** Sends local data into the peer's next receive. */
    SEND(WcOpcode.SEND),
    /** A SEND that carries immediate data to the peer's receive completion. */
    SEND_WITH_IMM(WcOpcode.SEND),
    /** Reads the peer's memory at a remote address and rkey into local buffers. */
    RDMA_READ(WcOpcode.RDMA_READ),
    /** Compares the peer's 8 bytes with a value and swaps in another if equal; returns the original. */
    ATOMIC_CMP_AND_SWP(WcOpcode.COMP_SWAP),
    /** Adds a value to the peer's 8 bytes; returns the original. */
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

    /**
     * The opcode its send completion carries.
     *
     * @return the completion's opcode
     */
    public WcOpcode completionOpcode() {
        return completionOpcode;
    }

    /**
     * Whether the operation is an atomic (8 bytes at an 8-byte-aligned remote address).
     *
     * @return true for compare and swap and fetch and add
     */
    public boolean isAtomic() {
        return this == ATOMIC_CMP_AND_SWP || this == ATOMIC_FETCH_AND_ADD;
    }

    /**
     * Whether the RNIC performs the operation locally, sending nothing.
     *
     * @return true for LOCAL_INV and BIND_MW
     */
    public boolean isLocal() {
        return this == LOCAL_INV || this == BIND_MW;
    }

    /**
     * Whether the operation carries immediate data.
     *
     * @return true for RDMA_WRITE_WITH_IMM and SEND_WITH_IMM
     */
    public boolean hasImmediate() {
        return this == RDMA_WRITE_WITH_IMM || this == SEND_WITH_IMM;
    }
}
