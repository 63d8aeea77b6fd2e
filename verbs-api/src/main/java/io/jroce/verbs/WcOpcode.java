package io.jroce.verbs;

/** Opcode of a work completion (enum ibv_wc_opcode). */
public enum WcOpcode {
    SEND(0), RDMA_WRITE(1), RDMA_READ(2), COMP_SWAP(3), FETCH_ADD(4), BIND_MW(5), LOCAL_INV(6),
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

    /** The value of IBV_WC_&lt;name&gt; in libibverbs; receive completions have bit 7 set. */
    public int code() {
        return code;
    }

    /** The opcode whose {@link #code()} is {@code code}; throws {@link IllegalArgumentException} for any other number. */
    public static WcOpcode fromCode(int code) {
        for (WcOpcode op : values()) {
            if (op.code == code) {
                return op;
            }
        }
        throw new IllegalArgumentException("no ibv_wc_opcode " + code + ((code & RECV_BIT) != 0 ? " (a receive)" : ""));
    }
}
