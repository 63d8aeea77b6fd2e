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

    public QpType type() {
        return type;
    }

    public QpInitAttributes type(QpType type) {
        this.type = type;
        return this;
    }

    public CompletionQueue sendCq() {
        return sendCq;
    }

    public QpInitAttributes sendCq(CompletionQueue sendCq) {
        this.sendCq = sendCq;
        return this;
    }

    public CompletionQueue recvCq() {
        return recvCq;
    }

    public QpInitAttributes recvCq(CompletionQueue recvCq) {
        this.recvCq = recvCq;
        return this;
    }

    /** Uses {@code cq} for both send and receive completions. */
    public QpInitAttributes cq(CompletionQueue cq) {
        this.sendCq = cq;
        this.recvCq = cq;
        return this;
    }

    public int maxSendWr() {
        return maxSendWr;
    }

    public QpInitAttributes maxSendWr(int maxSendWr) {
        this.maxSendWr = maxSendWr;
        return this;
    }

    public int maxRecvWr() {
        return maxRecvWr;
    }

    public QpInitAttributes maxRecvWr(int maxRecvWr) {
        this.maxRecvWr = maxRecvWr;
        return this;
    }

    public int maxSendSge() {
        return maxSendSge;
    }

    public QpInitAttributes maxSendSge(int maxSendSge) {
        this.maxSendSge = maxSendSge;
        return this;
    }

    public int maxRecvSge() {
        return maxRecvSge;
    }

    public QpInitAttributes maxRecvSge(int maxRecvSge) {
        this.maxRecvSge = maxRecvSge;
        return this;
    }

    public int maxInlineData() {
        return maxInlineData;
    }

    public QpInitAttributes maxInlineData(int maxInlineData) {
        this.maxInlineData = maxInlineData;
        return this;
    }

    /** Every send work request completes with a completion, signaled or not. */
    public boolean sqSigAll() {
        return sqSigAll;
    }

    public QpInitAttributes sqSigAll(boolean sqSigAll) {
        this.sqSigAll = sqSigAll;
        return this;
    }

    /** The shared receive queue the QP takes its receive WQEs from, or null for its own. */
    public SharedReceiveQueue srq() {
        return srq;
    }

    public QpInitAttributes srq(SharedReceiveQueue srq) {
        this.srq = srq;
        return this;
    }
}
