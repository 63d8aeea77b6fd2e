package io.jroce.verbs;

/** What {@link ProtectionDomain#createQp} needs (struct ibv_qp_init_attr with its ibv_qp_cap). */
public final class QpInitAttributes {
    private QpType type = QpType.RC;
    private CompletionQueue sendCq;
    private CompletionQueue recvCq;
    private int maxSendWr = 128;
    private int maxRecvWr = 128;
    private int maxSendSge = 1;
    private int maxRecvSge = 1;
    private int maxInlineData;
    private boolean sqSigAll;
    private SharedReceiveQueue srq;

    /** Attributes of an RC QP with 128 send and receive WRs of one SGE each, and no CQs yet. */
    public QpInitAttributes() {
    }

    /**
     * The QP's transport service type.
     *
     * @return RC (the default), UC or UD
     */
    public QpType type() {
        return type;
    }

    /**
     * Sets the QP's transport service type.
     *
     * @param type RC (the default), UC or UD
     * @return these attributes
     */
    public QpInitAttributes type(QpType type) {
        this.type = type;
        return this;
    }

    /**
     * The CQ that receives the send queue's completions.
     *
     * @return the CQ
     */
    public CompletionQueue sendCq() {
        return sendCq;
    }

    /**
     * Sets the CQ that receives the send queue's completions.
     *
     * @param sendCq the CQ
     * @return these attributes
     */
    public QpInitAttributes sendCq(CompletionQueue sendCq) {
        this.sendCq = sendCq;
        return this;
    }

    /**
     * The CQ that receives the receive queue's completions.
     *
     * @return the CQ
     */
    public CompletionQueue recvCq() {
        return recvCq;
    }

    /**
     * Sets the CQ that receives the receive queue's completions.
     *
     * @param recvCq the CQ
     * @return these attributes
     */
    public QpInitAttributes recvCq(CompletionQueue recvCq) {
        this.recvCq = recvCq;
        return this;
    }

    /**
     * Uses one CQ for both send and receive completions.
     *
     * @param cq the CQ
     * @return these attributes
     */
    public QpInitAttributes cq(CompletionQueue cq) {
        this.sendCq = cq;
        this.recvCq = cq;
        return this;
    }

    /**
     * How many send work requests may be outstanding.
     *
     * @return the send queue depth (128 by default)
     */
    public int maxSendWr() {
        return maxSendWr;
    }

    /**
     * Sets how many send work requests may be outstanding.
     *
     * @param maxSendWr the send queue depth (128 by default)
     * @return these attributes
     */
    public QpInitAttributes maxSendWr(int maxSendWr) {
        this.maxSendWr = maxSendWr;
        return this;
    }

    /**
     * How many receive work requests may be outstanding.
     *
     * @return the receive queue depth (128 by default)
     */
    public int maxRecvWr() {
        return maxRecvWr;
    }

    /**
     * Sets how many receive work requests may be outstanding.
     *
     * @param maxRecvWr the receive queue depth (128 by default)
     * @return these attributes
     */
    public QpInitAttributes maxRecvWr(int maxRecvWr) {
        this.maxRecvWr = maxRecvWr;
        return this;
    }

    /**
     * How many scatter/gather entries a send work request may have.
     *
     * @return the count (1 by default)
     */
    public int maxSendSge() {
        return maxSendSge;
    }

    /**
     * Sets how many scatter/gather entries a send work request may have.
     *
     * @param maxSendSge the count (1 by default)
     * @return these attributes
     */
    public QpInitAttributes maxSendSge(int maxSendSge) {
        this.maxSendSge = maxSendSge;
        return this;
    }

    /**
     * How many scatter/gather entries a receive work request may have.
     *
     * @return the count (1 by default)
     */
    public int maxRecvSge() {
        return maxRecvSge;
    }

    /**
     * Sets how many scatter/gather entries a receive work request may have.
     *
     * @param maxRecvSge the count (1 by default)
     * @return these attributes
     */
    public QpInitAttributes maxRecvSge(int maxRecvSge) {
        this.maxRecvSge = maxRecvSge;
        return this;
    }

    /**
     * How many bytes a send work request may carry inline ({@link SendFlags#INLINE}).
     *
     * @return the byte count (0 by default)
     */
    public int maxInlineData() {
        return maxInlineData;
    }

    /**
     * Sets how many bytes a send work request may carry inline ({@link SendFlags#INLINE}).
     *
     * @param maxInlineData the byte count (0 by default)
     * @return these attributes
     */
    public QpInitAttributes maxInlineData(int maxInlineData) {
        this.maxInlineData = maxInlineData;
        return this;
    }

    /**
     * Whether every send work request completes with a completion, signaled or not.
     *
     * @return true for a completion per send work request
     */
    public boolean sqSigAll() {
        return sqSigAll;
    }

    /**
     * Sets whether every send work request completes with a completion, signaled or not.
     *
     * @param sqSigAll true for a completion per send work request
     * @return these attributes
     */
    public QpInitAttributes sqSigAll(boolean sqSigAll) {
        this.sqSigAll = sqSigAll;
        return this;
    }

    /**
     * The shared receive queue the QP takes its receive WQEs from.
     *
     * @return the SRQ, or null for the QP's own receive queue
     */
    public SharedReceiveQueue srq() {
        return srq;
    }

    /**
     * Sets the shared receive queue the QP takes its receive WQEs from.
     *
     * @param srq the SRQ, or null for the QP's own receive queue
     * @return these attributes
     */
    public QpInitAttributes srq(SharedReceiveQueue srq) {
        this.srq = srq;
        return this;
    }
}
