package io.jroce.verbs;

/** Which attributes a {@link QpAttributes} carries; bit values of enum ibv_qp_attr_mask. */
public final class QpAttrMask {
    /** {@link QpAttributes#state()}: the state to move to. */
    public static final int STATE = 1;
    /** The state the caller believes the QP is in (ibv_modify_qp's cur_qp_state). */
    public static final int CUR_STATE = 1 << 1;
    /** Whether entering SQD raises an asynchronous event when the send queue has drained. */
    public static final int EN_SQD_ASYNC_NOTIFY = 1 << 2;
    /** {@link QpAttributes#accessFlags()}: the remote operations the QP accepts. */
    public static final int ACCESS_FLAGS = 1 << 3;
    /** {@link QpAttributes#pkeyIndex()}: the partition key's index. */
    public static final int PKEY_INDEX = 1 << 4;
    /** {@link QpAttributes#portNum()}: the device port (1). */
    public static final int PORT = 1 << 5;
    /** {@link QpAttributes#qkey()}: the Q_Key of a UD QP. */
    public static final int QKEY = 1 << 6;
    /** {@link QpAttributes#addressVector()}: the primary path to the peer. */
    public static final int AV = 1 << 7;
    /** {@link QpAttributes#pathMtu()}. */
    public static final int PATH_MTU = 1 << 8;
    /** {@link QpAttributes#timeout()}: the local ACK timeout. */
    public static final int TIMEOUT = 1 << 9;
    /** {@link QpAttributes#retryCount()}: retries after a timeout or a sequence error. */
    public static final int RETRY_CNT = 1 << 10;
    /** {@link QpAttributes#rnrRetry()}: retries after a receiver-not-ready NAK. */
    public static final int RNR_RETRY = 1 << 11;
    /** {@link QpAttributes#rqPsn()}: the first PSN expected from the peer. */
    public static final int RQ_PSN = 1 << 12;
    /** {@link QpAttributes#maxRdAtomic()}: READs and atomics outstanding as the requester. */
    public static final int MAX_QP_RD_ATOMIC = 1 << 13;
    /** The alternate path (not supported on RoCE). */
    public static final int ALT_PATH = 1 << 14;
    /** {@link QpAttributes#minRnrTimer()}: the RNR delay this QP asks of its peer. */
    public static final int MIN_RNR_TIMER = 1 << 15;
    /** {@link QpAttributes#sqPsn()}: the first PSN this QP sends. */
    public static final int SQ_PSN = 1 << 16;
    /** {@link QpAttributes#maxDestRdAtomic()}: READs and atomics accepted as the responder. */
    public static final int MAX_DEST_RD_ATOMIC = 1 << 17;
    /** The path migration state (not supported on RoCE). */
    public static final int PATH_MIG_STATE = 1 << 18;
    /** The queue capacities. */
    public static final int CAP = 1 << 19;
    /** {@link QpAttributes#destQpNum()}: the peer's QP number. */
    public static final int DEST_QPN = 1 << 20;

    private static final String[] NAMES = {
        "STATE", "CUR_STATE", "EN_SQD_ASYNC_NOTIFY", "ACCESS_FLAGS", "PKEY_INDEX", "PORT", "QKEY", "AV",
        "PATH_MTU", "TIMEOUT", "RETRY_CNT", "RNR_RETRY", "RQ_PSN", "MAX_QP_RD_ATOMIC", "ALT_PATH",
        "MIN_RNR_TIMER", "SQ_PSN", "MAX_DEST_RD_ATOMIC", "PATH_MIG_STATE", "CAP", "DEST_QPN"};

    private QpAttrMask() {
    }

    /**
     * The bits set in a mask, for messages and dumps.
     *
     * @param mask a mask of the bits above
     * @return their names joined by {@code |}, e.g. {@code AV|PATH_MTU}, unknown bits in hex, or {@code none}
     */
    public static String describe(int mask) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < NAMES.length; i++) {
            if ((mask & (1 << i)) != 0) {
                sb.append(sb.length() == 0 ? "" : "|").append(NAMES[i]);
            }
        }
        int unknown = mask & ~((1 << NAMES.length) - 1);
        if (unknown != 0) {
            sb.append(sb.length() == 0 ? "" : "|").append("0x").append(Integer.toHexString(unknown));
        }
        return sb.length() == 0 ? "none" : sb.toString();
    }
}
