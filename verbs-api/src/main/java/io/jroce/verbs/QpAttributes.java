package io.jroce.verbs;

/**
 * Attributes for {@link QueuePair#modify} (struct ibv_qp_attr together with its mask). Each setter
 * also sets its {@link QpAttrMask} bit, so the mask always says exactly which attributes were
 * given; {@link QueuePair#query()} returns one with every attribute set.
 */
public final class QpAttributes {
    private int mask;
    private QpState state;
    private QpState currentState;
    private int accessFlags;
    private int pkeyIndex;
    private int portNum = 1;
    private int qkey;
    private AddressVector addressVector;
    private Mtu pathMtu;
    private int timeout;
    private int retryCount;
    private int rnrRetry;
    private int rqPsn;
    private int sqPsn;
    private int maxRdAtomic;
    private int maxDestRdAtomic;
    private int minRnrTimer;
    private int destQpNum;

    /** The {@link QpAttrMask} bits of the attributes that were set. */
    public int mask() {
        return mask;
    }

    public boolean has(int maskBit) {
        return (mask & maskBit) == maskBit;
    }

    public QpState state() {
        return state;
    }

    /** Target state of the transition. */
    public QpAttributes state(QpState state) {
        this.state = state;
        mask |= QpAttrMask.STATE;
        return this;
    }

    public QpState currentState() {
        return currentState;
    }

    /** The state the caller believes the QP is in (checked, as IBV_QP_CUR_STATE). */
    public QpAttributes currentState(QpState currentState) {
        this.currentState = currentState;
        mask |= QpAttrMask.CUR_STATE;
        return this;
    }

    /** Remote access the responder allows (REMOTE_WRITE, REMOTE_READ, REMOTE_ATOMIC). */
    public int accessFlags() {
        return accessFlags;
    }

    public QpAttributes accessFlags(int accessFlags) {
        this.accessFlags = accessFlags;
        mask |= QpAttrMask.ACCESS_FLAGS;
        return this;
    }

    public int pkeyIndex() {
        return pkeyIndex;
    }

    public QpAttributes pkeyIndex(int pkeyIndex) {
        this.pkeyIndex = pkeyIndex;
        mask |= QpAttrMask.PKEY_INDEX;
        return this;
    }

    public int portNum() {
        return portNum;
    }

    public QpAttributes portNum(int portNum) {
        this.portNum = portNum;
        mask |= QpAttrMask.PORT;
        return this;
    }

    public int qkey() {
        return qkey;
    }

    public QpAttributes qkey(int qkey) {
        this.qkey = qkey;
        mask |= QpAttrMask.QKEY;
        return this;
    }

    public AddressVector addressVector() {
        return addressVector;
    }

    public QpAttributes addressVector(AddressVector av) {
        this.addressVector = av;
        mask |= QpAttrMask.AV;
        return this;
    }

    public Mtu pathMtu() {
        return pathMtu;
    }

    public QpAttributes pathMtu(Mtu pathMtu) {
        this.pathMtu = pathMtu;
        mask |= QpAttrMask.PATH_MTU;
        return this;
    }

    /** Local ACK timeout exponent: 4.096 us * 2^timeout, 0 = infinite (IBTA 9.7.6.1.3). */
    public int timeout() {
        return timeout;
    }

    public QpAttributes timeout(int timeout) {
        this.timeout = timeout;
        mask |= QpAttrMask.TIMEOUT;
        return this;
    }

    public int retryCount() {
        return retryCount;
    }

    public QpAttributes retryCount(int retryCount) {
        this.retryCount = retryCount;
        mask |= QpAttrMask.RETRY_CNT;
        return this;
    }

    public int rnrRetry() {
        return rnrRetry;
    }

    public QpAttributes rnrRetry(int rnrRetry) {
        this.rnrRetry = rnrRetry;
        mask |= QpAttrMask.RNR_RETRY;
        return this;
    }

    public int rqPsn() {
        return rqPsn;
    }

    public QpAttributes rqPsn(int rqPsn) {
        this.rqPsn = rqPsn;
        mask |= QpAttrMask.RQ_PSN;
        return this;
    }

    public int sqPsn() {
        return sqPsn;
    }

    public QpAttributes sqPsn(int sqPsn) {
        this.sqPsn = sqPsn;
        mask |= QpAttrMask.SQ_PSN;
        return this;
    }

    /** Outstanding RDMA READ / atomic requests this QP may have as requester. */
    public int maxRdAtomic() {
        return maxRdAtomic;
    }

    public QpAttributes maxRdAtomic(int maxRdAtomic) {
        this.maxRdAtomic = maxRdAtomic;
        mask |= QpAttrMask.MAX_QP_RD_ATOMIC;
        return this;
    }

    /** Incoming RDMA READ / atomic requests this QP accepts as responder. */
    public int maxDestRdAtomic() {
        return maxDestRdAtomic;
    }

    public QpAttributes maxDestRdAtomic(int maxDestRdAtomic) {
        this.maxDestRdAtomic = maxDestRdAtomic;
        mask |= QpAttrMask.MAX_DEST_RD_ATOMIC;
        return this;
    }

    /** RNR NAK timer code 0..31 (IBTA Table 45). */
    public int minRnrTimer() {
        return minRnrTimer;
    }

    public QpAttributes minRnrTimer(int minRnrTimer) {
        this.minRnrTimer = minRnrTimer;
        mask |= QpAttrMask.MIN_RNR_TIMER;
        return this;
    }

    public int destQpNum() {
        return destQpNum;
    }

    public QpAttributes destQpNum(int destQpNum) {
        this.destQpNum = destQpNum;
        mask |= QpAttrMask.DEST_QPN;
        return this;
    }

    @Override
    public String toString() {
        return "qp_attr{mask=" + QpAttrMask.describe(mask) + ", state=" + state + ", path_mtu=" + pathMtu
            + ", dest_qp=0x" + Integer.toHexString(destQpNum) + ", rq_psn=0x" + Integer.toHexString(rqPsn)
            + ", sq_psn=0x" + Integer.toHexString(sqPsn) + ", av=" + addressVector + "}";
    }
}
