package io.jroce.verbs;

/**
 * A work completion (struct ibv_wc). Mutable: {@link CompletionQueue#poll} fills instances that the
 * caller owns and reuses, so polling allocates nothing.
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
     * Fills every field and clears the GRH and invalidate flags; used by the RNIC.
     *
     * @param wrId      the work request's identifier
     * @param status    the completion status
     * @param opcode    the completion opcode
     * @param byteLen   the bytes transferred
     * @param withImm   whether immediate data came
     * @param immData   the immediate data
     * @param qpNum     the local QP number
     * @param srcQp     the source QP number
     * @param vendorErr the implementation's error detail, 0 for none
     * @return this completion
     */
    public WorkCompletion set(long wrId, WcStatus status, WcOpcode opcode, int byteLen,
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
        return this;
    }

    /**
     * Sets IBV_WC_GRH and IBV_WC_WITH_INV with the invalidated rkey; used by the RNIC.
     *
     * @param grh             whether the receive buffer starts with the GRH area
     * @param withInv         whether the message was a SEND with invalidate
     * @param invalidatedRkey the rkey it invalidated
     * @return this completion
     */
    public WorkCompletion flags(boolean grh, boolean withInv, int invalidatedRkey) {
        this.grh = grh;
        this.withInv = withInv;
        this.invalidatedRkey = invalidatedRkey;
        return this;
    }

    /**
     * Starts a completion of work request {@code wrId} on QP {@code qpNum} with status SUCCESS and
     * every other field cleared; the RNIC then sets what applies with the fluent setters below.
     *
     * @param wrId   the work request's identifier
     * @param opcode the completion opcode
     * @param qpNum  the local QP number
     * @return this completion
     */
    public WorkCompletion start(long wrId, WcOpcode opcode, int qpNum) {
        return set(wrId, WcStatus.SUCCESS, opcode, 0, false, 0, qpNum, 0, 0);
    }

    /**
     * Sets the status; used by the RNIC.
     *
     * @param status the status
     * @return this completion
     */
    public WorkCompletion status(WcStatus status) {
        this.status = status;
        return this;
    }

    /**
     * Sets the number of bytes transferred; used by the RNIC.
     *
     * @param byteLen the byte count, unsigned
     * @return this completion
     */
    public WorkCompletion byteLen(int byteLen) {
        this.byteLen = byteLen;
        return this;
    }

    /**
     * Sets the immediate data and IBV_WC_WITH_IMM; used by the RNIC.
     *
     * @param immData the immediate data
     * @return this completion
     */
    public WorkCompletion immData(int immData) {
        this.immData = immData;
        this.withImm = true;
        return this;
    }

    /**
     * Sets the source QP (UD receives; connected QPs report their peer); used by the RNIC.
     *
     * @param srcQp the source QP number
     * @return this completion
     */
    public WorkCompletion srcQp(int srcQp) {
        this.srcQp = srcQp;
        return this;
    }

    /**
     * Sets IBV_WC_GRH (a UD receive whose buffer starts with the 40-byte GRH area); used by the RNIC.
     *
     * @param grh whether the GRH area is filled
     * @return this completion
     */
    public WorkCompletion grh(boolean grh) {
        this.grh = grh;
        return this;
    }

    /**
     * Sets the rkey a SEND with invalidate invalidated and IBV_WC_WITH_INV; used by the RNIC.
     *
     * @param rkey the invalidated rkey
     * @return this completion
     */
    public WorkCompletion invalidatedRkey(int rkey) {
        this.invalidatedRkey = rkey;
        this.withInv = true;
        return this;
    }

    /**
     * Copies every field of another completion.
     *
     * @param o the completion to copy
     * @return this completion
     */
    public WorkCompletion copyFrom(WorkCompletion o) {
        return set(o.wrId, o.status, o.opcode, o.byteLen, o.withImm, o.immData, o.qpNum, o.srcQp, o.vendorErr)
            .flags(o.grh, o.withInv, o.invalidatedRkey);
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
