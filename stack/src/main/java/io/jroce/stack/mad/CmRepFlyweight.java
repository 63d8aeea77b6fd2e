package io.jroce.stack.mad;

import org.agrona.DirectBuffer;

/**
 * ConnectReply, REP (IBTA Vol. 1 12.6.8 Table 110; include/rdma/ibta_vol1_c12.h
 * {@code struct cm_rep_msg}): the passive side's acceptance, carrying its QP. Offsets from the start
 * of the MAD; IBTA's data offset is 24 less.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                    Local Communication ID                     | 24
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                    Remote Communication ID                    | 28
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                          Local Q_Key                          | 32
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                   Local QPN                   |   Reserved    | 36
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                   Local EECN                  |   Reserved    | 40
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                  Starting PSN                 |   Reserved    | 44
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  | Resp. Resour. | Init. Depth   |TgtAckDly|FO |E|RNR|S| Rsv4  | 48
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                    Local CA GUID (64 bits)                    | 52
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                  Private Data (196 bytes)                     | 60
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * TgtAckDly: target ACK delay (5 bits), FO: failover accepted (2), E: end-to-end flow control,
 * RNR: RNR retry count (3 bits), S: SRQ.
 */
public final class CmRepFlyweight extends CmMessageFlyweight {
    public static final int LOCAL_COMM_ID_OFFSET = 24;
    public static final int REMOTE_COMM_ID_OFFSET = 28;
    public static final int LOCAL_Q_KEY_OFFSET = 32;
    public static final int LOCAL_QPN_OFFSET = 36;
    public static final int LOCAL_EECN_OFFSET = 40;
    public static final int STARTING_PSN_OFFSET = 44;
    public static final int RESPONDER_RESOURCES_OFFSET = 48;
    public static final int INITIATOR_DEPTH_OFFSET = 49;
    /** Target ACK delay (5 bits), failover accepted (2), end-to-end flow control (1). */
    public static final int TARGET_ACK_DELAY_OFFSET = 50;
    /** RNR retry count (3 bits), SRQ (1), 4 reserved bits. */
    public static final int RNR_RETRY_COUNT_OFFSET = 51;
    public static final int LOCAL_CA_GUID_OFFSET = 52;
    public static final int PRIVATE_DATA_OFFSET = 60;
    public static final int PRIVATE_DATA_LENGTH = LENGTH - PRIVATE_DATA_OFFSET;

    public CmRepFlyweight wrap(DirectBuffer buffer, int offset) {
        wrapBuffer(buffer, offset);
        return this;
    }

    /** Zeroes the 256 bytes, MAD header included. */
    public CmRepFlyweight clear() {
        clearMad();
        return this;
    }

    @Override
    public int attributeId() {
        return MadHeaderFlyweight.ATTR_REP;
    }

    @Override
    public int privateDataOffset() {
        return PRIVATE_DATA_OFFSET;
    }

    public int localCommId() {
        return getInt32(LOCAL_COMM_ID_OFFSET);
    }

    public CmRepFlyweight localCommId(int commId) {
        putInt32(LOCAL_COMM_ID_OFFSET, commId);
        return this;
    }

    /** The peer's local comm ID, as its last message carried it (the REQ's). */
    public int remoteCommId() {
        return getInt32(REMOTE_COMM_ID_OFFSET);
    }

    public CmRepFlyweight remoteCommId(int commId) {
        putInt32(REMOTE_COMM_ID_OFFSET, commId);
        return this;
    }

    public int localQKey() {
        return getInt32(LOCAL_Q_KEY_OFFSET);
    }

    public CmRepFlyweight localQKey(int qKey) {
        putInt32(LOCAL_Q_KEY_OFFSET, qKey);
        return this;
    }

    /** 24 bits: the passive side's QP. */
    public int localQpn() {
        return getUint24(LOCAL_QPN_OFFSET);
    }

    public CmRepFlyweight localQpn(int qpn) {
        putUint24(LOCAL_QPN_OFFSET, qpn);
        return this;
    }

    public int localEecn() {
        return getUint24(LOCAL_EECN_OFFSET);
    }

    public CmRepFlyweight localEecn(int eecn) {
        putUint24(LOCAL_EECN_OFFSET, eecn);
        return this;
    }

    /** 24 bits: the PSN of the passive side's first request packet. */
    public int startingPsn() {
        return getUint24(STARTING_PSN_OFFSET);
    }

    public CmRepFlyweight startingPsn(int psn) {
        putUint24(STARTING_PSN_OFFSET, psn);
        return this;
    }

    public int responderResources() {
        return getUint8(RESPONDER_RESOURCES_OFFSET);
    }

    public CmRepFlyweight responderResources(int value) {
        putUint8(RESPONDER_RESOURCES_OFFSET, value);
        return this;
    }

    public int initiatorDepth() {
        return getUint8(INITIATOR_DEPTH_OFFSET);
    }

    public CmRepFlyweight initiatorDepth(int value) {
        putUint8(INITIATOR_DEPTH_OFFSET, value);
        return this;
    }

    /** 5 bits: the passive CA's ACK delay, which the active side adds to its ACK timeout. */
    public int targetAckDelay() {
        return getBits(TARGET_ACK_DELAY_OFFSET, 0, 5);
    }

    public CmRepFlyweight targetAckDelay(int delay) {
        putBits(TARGET_ACK_DELAY_OFFSET, 0, 5, delay);
        return this;
    }

    /** 2 bits: whether the alternate path was accepted (0 accepted, 1 not supported, 2 rejected). */
    public int failoverAccepted() {
        return getBits(TARGET_ACK_DELAY_OFFSET, 5, 2);
    }

    public CmRepFlyweight failoverAccepted(int value) {
        putBits(TARGET_ACK_DELAY_OFFSET, 5, 2, value);
        return this;
    }

    public boolean endToEndFlowControl() {
        return getBits(TARGET_ACK_DELAY_OFFSET, 7, 1) != 0;
    }

    public CmRepFlyweight endToEndFlowControl(boolean flowControl) {
        putBits(TARGET_ACK_DELAY_OFFSET, 7, 1, flowControl ? 1 : 0);
        return this;
    }

    /** 3 bits: the RNR retry count the passive side asks the active side to use. */
    public int rnrRetryCount() {
        return getBits(RNR_RETRY_COUNT_OFFSET, 0, 3);
    }

    public CmRepFlyweight rnrRetryCount(int count) {
        putBits(RNR_RETRY_COUNT_OFFSET, 0, 3, count);
        return this;
    }

    public boolean srq() {
        return getBits(RNR_RETRY_COUNT_OFFSET, 3, 1) != 0;
    }

    public CmRepFlyweight srq(boolean srq) {
        putBits(RNR_RETRY_COUNT_OFFSET, 3, 1, srq ? 1 : 0);
        return this;
    }

    public long localCaGuid() {
        return getInt64(LOCAL_CA_GUID_OFFSET);
    }

    public CmRepFlyweight localCaGuid(long guid) {
        putInt64(LOCAL_CA_GUID_OFFSET, guid);
        return this;
    }
}
