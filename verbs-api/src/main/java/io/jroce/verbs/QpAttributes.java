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

    /** Empty attributes: no mask bit set, port 1. */
    public QpAttributes() {
    }

    /**
     * Which attributes were set.
     *
     * @return the {@link QpAttrMask} bits of the attributes that were set
     */
    public int mask() {
        return mask;
    }

    /**
     * Whether attributes were set.
     *
     * @param maskBit one or more {@link QpAttrMask} bits
     * @return true if every one of them is set
     */
    public boolean has(int maskBit) {
        return (mask & maskBit) == maskBit;
    }

    /**
     * The state to move to.
     *
     * @return the target state
     */
    public QpState state() {
        return state;
    }

    /**
     * Sets the state to move to, and its mask bit.
     *
     * @param state the target state
     * @return these attributes
     */
    public QpAttributes state(QpState state) {
        this.state = state;
        mask |= QpAttrMask.STATE;
        return this;
    }

    /**
     * The state the caller believes the QP is in (checked, as IBV_QP_CUR_STATE).
     *
     * @return the believed current state
     */
    public QpState currentState() {
        return currentState;
    }

    /**
     * Sets the state the caller believes the QP is in (checked, as IBV_QP_CUR_STATE), and its mask bit.
     *
     * @param currentState the believed current state
     * @return these attributes
     */
    public QpAttributes currentState(QpState currentState) {
        this.currentState = currentState;
        mask |= QpAttrMask.CUR_STATE;
        return this;
    }

    /**
     * The remote access the responder allows.
     *
     * @return a mask of {@link AccessFlags} (REMOTE_WRITE, REMOTE_READ, REMOTE_ATOMIC)
     */
    public int accessFlags() {
        return accessFlags;
    }

    /**
     * Sets the remote access the responder allows, and its mask bit.
     *
     * @param accessFlags a mask of {@link AccessFlags} (REMOTE_WRITE, REMOTE_READ, REMOTE_ATOMIC)
     * @return these attributes
     */
    public QpAttributes accessFlags(int accessFlags) {
        this.accessFlags = accessFlags;
        mask |= QpAttrMask.ACCESS_FLAGS;
        return this;
    }

    /**
     * The index of the partition key in the port's P_Key table.
     *
     * @return the index (0: the default partition)
     */
    public int pkeyIndex() {
        return pkeyIndex;
    }

    /**
     * Sets the index of the partition key in the port's P_Key table, and its mask bit.
     *
     * @param pkeyIndex the index (0: the default partition)
     * @return these attributes
     */
    public QpAttributes pkeyIndex(int pkeyIndex) {
        this.pkeyIndex = pkeyIndex;
        mask |= QpAttrMask.PKEY_INDEX;
        return this;
    }

    /**
     * The device port the QP uses.
     *
     * @return the port number, 1 (jroce devices have one port)
     */
    public int portNum() {
        return portNum;
    }

    /**
     * Sets the device port the QP uses, and its mask bit.
     *
     * @param portNum the port number, 1 (jroce devices have one port)
     * @return these attributes
     */
    public QpAttributes portNum(int portNum) {
        this.portNum = portNum;
        mask |= QpAttrMask.PORT;
        return this;
    }

    /**
     * The Q_Key of a UD QP: datagrams whose DETH carries another are dropped.
     *
     * @return the Q_Key
     */
    public int qkey() {
        return qkey;
    }

    /**
     * Sets the Q_Key of a UD QP: datagrams whose DETH carries another are dropped, and its mask bit.
     *
     * @param qkey the Q_Key
     * @return these attributes
     */
    public QpAttributes qkey(int qkey) {
        this.qkey = qkey;
        mask |= QpAttrMask.QKEY;
        return this;
    }

    /**
     * The primary path to the peer of a connected QP (RC, UC).
     *
     * @return the address vector (kept, not copied)
     */
    public AddressVector addressVector() {
        return addressVector;
    }

    /**
     * Sets the primary path to the peer of a connected QP (RC, UC), and its mask bit.
     *
     * @param av the address vector (kept, not copied)
     * @return these attributes
     */
    public QpAttributes addressVector(AddressVector av) {
        this.addressVector = av;
        mask |= QpAttrMask.AV;
        return this;
    }

    /**
     * The path MTU: the largest payload of one packet.
     *
     * @return the path MTU
     */
    public Mtu pathMtu() {
        return pathMtu;
    }

    /**
     * Sets the path MTU: the largest payload of one packet, and its mask bit.
     *
     * @param pathMtu the path MTU
     * @return these attributes
     */
    public QpAttributes pathMtu(Mtu pathMtu) {
        this.pathMtu = pathMtu;
        mask |= QpAttrMask.PATH_MTU;
        return this;
    }

    /**
     * The local ACK timeout exponent: 4.096 us * 2^timeout, 0 = infinite (IBTA 9.7.6.1.3).
     *
     * @return the exponent, 0..31
     */
    public int timeout() {
        return timeout;
    }

    /**
     * Sets the local ACK timeout exponent: 4.096 us * 2^timeout, 0 = infinite (IBTA 9.7.6.1.3), and its mask bit.
     *
     * @param timeout the exponent, 0..31
     * @return these attributes
     */
    public QpAttributes timeout(int timeout) {
        this.timeout = timeout;
        mask |= QpAttrMask.TIMEOUT;
        return this;
    }

    /**
     * How often a request is retransmitted after a timeout or a sequence error NAK before it fails.
     *
     * @return the count, 0..7
     */
    public int retryCount() {
        return retryCount;
    }

    /**
     * Sets how often a request is retransmitted after a timeout or a sequence error NAK before it fails, and its mask bit.
     *
     * @param retryCount the count, 0..7
     * @return these attributes
     */
    public QpAttributes retryCount(int retryCount) {
        this.retryCount = retryCount;
        mask |= QpAttrMask.RETRY_CNT;
        return this;
    }

    /**
     * How often a request is retried after an RNR NAK before it fails.
     *
     * @return the count, 0..7 (7: without limit)
     */
    public int rnrRetry() {
        return rnrRetry;
    }

    /**
     * Sets how often a request is retried after an RNR NAK before it fails, and its mask bit.
     *
     * @param rnrRetry the count, 0..7 (7: without limit)
     * @return these attributes
     */
    public QpAttributes rnrRetry(int rnrRetry) {
        this.rnrRetry = rnrRetry;
        mask |= QpAttrMask.RNR_RETRY;
        return this;
    }

    /**
     * The PSN of the first request expected from the peer.
     *
     * @return the 24-bit PSN
     */
    public int rqPsn() {
        return rqPsn;
    }

    /**
     * Sets the PSN of the first request expected from the peer, and its mask bit.
     *
     * @param rqPsn the 24-bit PSN
     * @return these attributes
     */
    public QpAttributes rqPsn(int rqPsn) {
        this.rqPsn = rqPsn;
        mask |= QpAttrMask.RQ_PSN;
        return this;
    }

    /**
     * The PSN of the first request this QP sends.
     *
     * @return the 24-bit PSN
     */
    public int sqPsn() {
        return sqPsn;
    }

    /**
     * Sets the PSN of the first request this QP sends, and its mask bit.
     *
     * @param sqPsn the 24-bit PSN
     * @return these attributes
     */
    public QpAttributes sqPsn(int sqPsn) {
        this.sqPsn = sqPsn;
        mask |= QpAttrMask.SQ_PSN;
        return this;
    }

    /**
     * How many RDMA READ and atomic requests this QP may have outstanding as the requester.
     *
     * @return the count
     */
    public int maxRdAtomic() {
        return maxRdAtomic;
    }

    /**
     * Sets how many RDMA READ and atomic requests this QP may have outstanding as the requester, and its mask bit.
     *
     * @param maxRdAtomic the count
     * @return these attributes
     */
    public QpAttributes maxRdAtomic(int maxRdAtomic) {
        this.maxRdAtomic = maxRdAtomic;
        mask |= QpAttrMask.MAX_QP_RD_ATOMIC;
        return this;
    }

    /**
     * How many incoming RDMA READ and atomic requests this QP accepts at once as the responder.
     *
     * @return the count
     */
    public int maxDestRdAtomic() {
        return maxDestRdAtomic;
    }

    /**
     * Sets how many incoming RDMA READ and atomic requests this QP accepts at once as the responder, and its mask bit.
     *
     * @param maxDestRdAtomic the count
     * @return these attributes
     */
    public QpAttributes maxDestRdAtomic(int maxDestRdAtomic) {
        this.maxDestRdAtomic = maxDestRdAtomic;
        mask |= QpAttrMask.MAX_DEST_RD_ATOMIC;
        return this;
    }

    /**
     * The RNR NAK timer code this QP sends in its RNR NAKs (IBTA Table 45).
     *
     * @return the code, 0..31
     */
    public int minRnrTimer() {
        return minRnrTimer;
    }

    /**
     * Sets the RNR NAK timer code this QP sends in its RNR NAKs (IBTA Table 45), and its mask bit.
     *
     * @param minRnrTimer the code, 0..31
     * @return these attributes
     */
    public QpAttributes minRnrTimer(int minRnrTimer) {
        this.minRnrTimer = minRnrTimer;
        mask |= QpAttrMask.MIN_RNR_TIMER;
        return this;
    }

    /**
     * The peer's QP number (RC, UC).
     *
     * @return the 24-bit QP number
     */
    public int destQpNum() {
        return destQpNum;
    }

    /**
     * Sets the peer's QP number (RC, UC), and its mask bit.
     *
     * @param destQpNum the 24-bit QP number
     * @return these attributes
     */
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
