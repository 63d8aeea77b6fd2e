package io.jroce.verbs;

import io.jroce.verbs.spi.CompletionWriter;

/**
 * A work completion (struct ibv_wc). {@link CompletionQueue#poll} fills instances that the caller owns
 * and reuses, so polling allocates nothing; an application reads the fields, only the RNIC writes them
 * (through {@code io.jroce.verbs.spi.CompletionWriter}, which is not public API).
 */
public final class WorkCompletion {
    private long wrId;
    /** Null until a poll fills it: an instance no poll has filled must not read as a success. */
    private WcStatus status;
    private WcOpcode opcode;
    private int byteLen;
    private int immData;
    private boolean withImm;
    private int qpNum;
    private int srcQp;
    private int vendorErr;
    private boolean grh;
    private boolean withInv;
    private int invalidatedRkey;

    /**
     * An empty completion for {@link CompletionQueue#poll} to fill: until a poll returns it filled, its
     * {@link #status} and {@link #opcode} are null, so that a caller that ignores what the poll
     * returned cannot take it for a success.
     */
    public WorkCompletion() {
    }

    /**
     * Copies every field of another completion.
     *
     * @param o the completion to copy
     * @return this completion
     * @throws InvalidAttributeException when {@code o} is null
     */
    public WorkCompletion copyFrom(WorkCompletion o) {
        Arguments.notNull(o, "the completion to copy");
        fill(o.wrId, o.status, o.opcode, o.byteLen, o.withImm, o.immData, o.qpNum, o.srcQp, o.vendorErr);
        grh = o.grh;
        withInv = o.withInv;
        invalidatedRkey = o.invalidatedRkey;
        return this;
    }

    private void fill(long wrId, WcStatus status, WcOpcode opcode, int byteLen,
                      boolean withImm, int immData, int qpNum, int srcQp, int vendorErr) {
        this.wrId = wrId;
        this.status = status;
        this.opcode = opcode;
        this.byteLen = byteLen;
        this.withImm = withImm;
        this.immData = immData;
        this.qpNum = qpNum;
        this.srcQp = srcQp;
        this.vendorErr = vendorErr;
        this.grh = false;
        this.withInv = false;
        this.invalidatedRkey = 0;
    }

    static {
        CompletionWriter.register(new Writer());
    }

    /** The RNIC's access to the fields (io.jroce.verbs.spi, not exported to applications). */
    private static final class Writer extends CompletionWriter {
        @Override
        public WorkCompletion set(WorkCompletion wc, long wrId, WcStatus status, WcOpcode opcode, int byteLen,
                                  boolean withImm, int immData, int qpNum, int srcQp, int vendorErr) {
            wc.fill(wrId, status, opcode, byteLen, withImm, immData, qpNum, srcQp, vendorErr);
            return wc;
        }

        @Override
        public void status(WorkCompletion wc, WcStatus status) {
            wc.status = status;
        }

        @Override
        public void byteLen(WorkCompletion wc, int byteLen) {
            wc.byteLen = byteLen;
        }

        @Override
        public void immData(WorkCompletion wc, int immData) {
            wc.immData = immData;
            wc.withImm = true;
        }

        @Override
        public void srcQp(WorkCompletion wc, int srcQp) {
            wc.srcQp = srcQp;
        }

        @Override
        public void grh(WorkCompletion wc, boolean grh) {
            wc.grh = grh;
        }

        @Override
        public void invalidatedRkey(WorkCompletion wc, int rkey) {
            wc.invalidatedRkey = rkey;
            wc.withInv = true;
        }
    }

    /**
     * The identifier of the work request that completed.
     *
     * @return the wr_id the request was posted with
     */
    public long wrId() {
        return wrId;
    }

    /**
     * Whether the work request succeeded, and if not why.
     *
     * @return the status, or null if no poll has filled this completion yet
     */
    public WcStatus status() {
        return status;
    }

    /**
     * The operation that completed; as in libibverbs it is meaningful only when the status is SUCCESS.
     *
     * @return the opcode, or null if no poll has filled this completion yet
     */
    public WcOpcode opcode() {
        return opcode;
    }

    /**
     * The bytes transferred: the received length for receives, the read/atomic length for reads.
     *
     * @return the byte count, unsigned
     */
    public int byteLen() {
        return byteLen;
    }

    /**
     * The immediate data as the sender posted it; valid when {@link #withImm()}.
     *
     * @return the immediate data
     */
    public int immData() {
        return immData;
    }

    /**
     * Whether the message carried immediate data (IBV_WC_WITH_IMM).
     *
     * @return true when {@link #immData()} is valid
     */
    public boolean withImm() {
        return withImm;
    }

    /**
     * The local QP the work request belonged to.
     *
     * @return its 24-bit QP number
     */
    public int qpNum() {
        return qpNum;
    }

    /**
     * The source QP number (UD receives).
     *
     * @return the sender's 24-bit QP number
     */
    public int srcQp() {
        return srcQp;
    }

    /**
     * Whether the first 40 bytes of the receive buffer hold the network header (IBV_WC_GRH, UD receives).
     *
     * @return true when the GRH area is filled
     */
    public boolean grh() {
        return grh;
    }

    /**
     * Whether the message was a SEND with invalidate (IBV_WC_WITH_INV); see {@link #invalidatedRkey()}.
     *
     * @return true for a SEND with invalidate
     */
    public boolean withInv() {
        return withInv;
    }

    /**
     * The rkey the SEND with invalidate invalidated (ibv_wc.invalidated_rkey).
     *
     * @return the rkey, valid when {@link #withInv()}
     */
    public int invalidatedRkey() {
        return invalidatedRkey;
    }

    /**
     * The implementation's detail of an error status.
     *
     * @return the detail, 0 when none
     */
    public int vendorErr() {
        return vendorErr;
    }

    @Override
    public String toString() {
        if (status == null) {
            return "wc{empty: no poll has filled it}";
        }
        return "wc{wr_id=" + wrId + ", status=" + status + ", opcode=" + opcode + ", byte_len="
            + Integer.toUnsignedString(byteLen) + (withImm ? ", imm=0x" + Integer.toHexString(immData) : "")
            + ", qp_num=0x" + Integer.toHexString(qpNum) + (srcQp != 0 ? ", src_qp=0x" + Integer.toHexString(srcQp) : "")
            + (vendorErr != 0 ? ", vendor_err=" + vendorErr : "") + "}";
    }
}
