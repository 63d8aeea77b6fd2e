package io.jroce.verbs;

/**
 * A work completion (struct ibv_wc). Mutable: {@link CompletionQueue#poll} fills instances that the
 * caller owns and reuses, so polling allocates nothing.
 */
public final class WorkCompletion {
    private long wrId;
    private WcStatus status = WcStatus.SUCCESS;
    private WcOpcode opcode = WcOpcode.SEND;
    private int byteLen;
    private int immData;
    private boolean withImm;
    private int qpNum;
    private int srcQp;
    private int vendorErr;
    private boolean grh;
    private boolean withInv;
    private int invalidatedRkey;

    /** Fills every field; used by the RNIC. */
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

    /** Sets IBV_WC_GRH and IBV_WC_WITH_INV with the invalidated rkey; used by the RNIC. */
    public WorkCompletion flags(boolean grh, boolean withInv, int invalidatedRkey) {
        this.grh = grh;
        this.withInv = withInv;
        this.invalidatedRkey = invalidatedRkey;
        return this;
    }

    /**
     * Starts a completion of work request {@code wrId} on QP {@code qpNum} with status SUCCESS and
     * every other field cleared; the RNIC then sets what applies with the fluent setters below.
     */
    public WorkCompletion start(long wrId, WcOpcode opcode, int qpNum) {
        return set(wrId, WcStatus.SUCCESS, opcode, 0, false, 0, qpNum, 0, 0);
    }

    /** Sets the status; used by the RNIC. */
    public WorkCompletion status(WcStatus status) {
        this.status = status;
        return this;
    }

    /** Sets the number of bytes transferred; used by the RNIC. */
    public WorkCompletion byteLen(int byteLen) {
        this.byteLen = byteLen;
        return this;
    }

    /** Sets the immediate data and IBV_WC_WITH_IMM; used by the RNIC. */
    public WorkCompletion immData(int immData) {
        this.immData = immData;
        this.withImm = true;
        return this;
    }

    /** Sets the source QP (UD receives; connected QPs report their peer); used by the RNIC. */
    public WorkCompletion srcQp(int srcQp) {
        this.srcQp = srcQp;
        return this;
    }

    /** Sets IBV_WC_GRH (a UD receive whose buffer starts with the 40-byte GRH area); used by the RNIC. */
    public WorkCompletion grh(boolean grh) {
        this.grh = grh;
        return this;
    }

    /** Sets the rkey a SEND with invalidate invalidated and IBV_WC_WITH_INV; used by the RNIC. */
    public WorkCompletion invalidatedRkey(int rkey) {
        this.invalidatedRkey = rkey;
        this.withInv = true;
        return this;
    }

    public WorkCompletion copyFrom(WorkCompletion o) {
        return set(o.wrId, o.status, o.opcode, o.byteLen, o.withImm, o.immData, o.qpNum, o.srcQp, o.vendorErr)
            .flags(o.grh, o.withInv, o.invalidatedRkey);
    }

    public long wrId() {
        return wrId;
    }

    public WcStatus status() {
        return status;
    }

    /** The opcode; as in libibverbs it is meaningful only when the status is SUCCESS. */
    public WcOpcode opcode() {
        return opcode;
    }

    /** Bytes transferred: the received length for receives, the read/atomic length for reads. */
    public int byteLen() {
        return byteLen;
    }

    /** Immediate data as the sender posted it; valid when {@link #withImm()}. */
    public int immData() {
        return immData;
    }

    /** IBV_WC_WITH_IMM. */
    public boolean withImm() {
        return withImm;
    }

    public int qpNum() {
        return qpNum;
    }

    /** Source QP number (UD receives). */
    public int srcQp() {
        return srcQp;
    }

    /** IBV_WC_GRH: the first 40 bytes of the receive buffer hold the network header (UD receives). */
    public boolean grh() {
        return grh;
    }

    /** IBV_WC_WITH_INV: the message was a SEND with invalidate; see {@link #invalidatedRkey()}. */
    public boolean withInv() {
        return withInv;
    }

    /** The rkey the SEND with invalidate invalidated (ibv_wc.invalidated_rkey). */
    public int invalidatedRkey() {
        return invalidatedRkey;
    }

    /** Implementation-specific detail of an error status (0 when none). */
    public int vendorErr() {
        return vendorErr;
    }

    @Override
    public String toString() {
        return "wc{wr_id=" + wrId + ", status=" + status + ", opcode=" + opcode + ", byte_len="
            + Integer.toUnsignedString(byteLen) + (withImm ? ", imm=0x" + Integer.toHexString(immData) : "")
            + ", qp_num=0x" + Integer.toHexString(qpNum) + (vendorErr != 0 ? ", vendor_err=" + vendorErr : "") + "}";
    }
}
