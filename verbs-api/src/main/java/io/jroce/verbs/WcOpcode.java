package io.jroce.verbs;

/** Opcode of a work completion (enum ibv_wc_opcode). */
public enum WcOpcode {
    /** A SEND (with or without immediate or invalidate) completed. */
    SEND(0),
    /** An RDMA WRITE (with or without immediate) completed. */
    RDMA_WRITE(1),
    /** An RDMA READ completed: the data is in the local buffers. */
    RDMA_READ(2),
    /** A compare and swap completed: the original remote value is in the local buffer. */
    COMP_SWAP(3),
    /** A fetch and add completed: the original remote value is in the local buffer. */
    FETCH_ADD(4),
    /** A memory window bind completed. */
    BIND_MW(5),
    /** A local invalidate completed. */
    LOCAL_INV(6),
    /** A receive completion. */
    RECV(128),
    /** A receive completion consumed by an RDMA WRITE with immediate. */
    RECV_RDMA_WITH_IMM(129);

    /** IBV_WC_RECV: the bit libibverbs sets in the opcode of every receive completion. */
    private static final int RECV_BIT = 1 << 7;

    private final int code;

    WcOpcode(int code) {
        this.code = code;
    }

    /**
     * The opcode's value in libibverbs.
     *
     * @return the value of IBV_WC_&lt;name&gt;; receive completions have bit 7 set
     */
    public int code() {
        return code;
    }

    /**
     * The opcode of a libibverbs value.
     *
     * @param code a value of enum ibv_wc_opcode
     * @return the opcode whose {@link #code()} is {@code code}
     * @throws IllegalArgumentException no opcode has that value
     */
    public static WcOpcode fromCode(int code) {
        for (WcOpcode op : values()) {
            if (op.code == code) {
                return op;
            }
        }
        throw new IllegalArgumentException("no ibv_wc_opcode " + code + ((code & RECV_BIT) != 0 ? " (a receive)" : ""));
    }
}
