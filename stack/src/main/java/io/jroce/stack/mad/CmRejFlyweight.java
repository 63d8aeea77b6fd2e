package io.jroce.stack.mad;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * ConnectReject, REJ (IBTA Vol. 1 12.6.7 Table 108; include/rdma/ibta_vol1_c12.h
 * {@code struct cm_rej_msg}; reasons from include/rdma/ib_cm.h {@code enum ib_cm_rej_reason}, IBTA
 * Table 109). Offsets from the start of the MAD; IBTA's data offset is 24 less.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                    Local Communication ID                     | 24
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                    Remote Communication ID                    | 28
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |MsgR|  Rsv6     | InfoLength  |R|            Reason             | 32
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |            Additional Reject Information (72 bytes)           | 36
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                  Private Data (148 bytes)                     | 108
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * MsgR: message rejected (2 bits: {@link #REJECTED_REQ}, {@link #REJECTED_REP},
 * {@link #REJECTED_OTHER}); InfoLength: bytes of additional reject information (7 bits). A REJ that
 * answers a REQ no one listens for carries local comm ID 0 (cm.c, cm_issue_rej).
 */
public final class CmRejFlyweight extends CmMessageFlyweight {
    public static final int LOCAL_COMM_ID_OFFSET = 24;
    public static final int REMOTE_COMM_ID_OFFSET = 28;
    /** Message rejected (2 bits), 6 reserved bits. */
    public static final int MESSAGE_REJECTED_OFFSET = 32;
    /** Reject info length (7 bits), 1 reserved bit. */
    public static final int REJECT_INFO_LENGTH_OFFSET = 33;
    public static final int REASON_OFFSET = 34;
    public static final int ADDITIONAL_REJECT_INFO_OFFSET = 36;
    public static final int ADDITIONAL_REJECT_INFO_LENGTH = 72;
    public static final int PRIVATE_DATA_OFFSET = 108;
    public static final int PRIVATE_DATA_LENGTH = LENGTH - PRIVATE_DATA_OFFSET;

    public static final int REJECTED_REQ = 0;
    public static final int REJECTED_REP = 1;
    public static final int REJECTED_OTHER = 2;

    // The reasons the kernel's CM and RDMA CM send (ib_cm.h IB_CM_REJ_*).
    public static final int REASON_NO_QP = 1;
    public static final int REASON_NO_RESOURCES = 3;
    public static final int REASON_TIMEOUT = 4;
    public static final int REASON_INVALID_COMM_ID = 6;
    public static final int REASON_INVALID_SERVICE_ID = 8;
    public static final int REASON_INVALID_TRANSPORT_TYPE = 9;
    public static final int REASON_STALE_CONN = 10;
    public static final int REASON_INVALID_GID = 12;
    public static final int REASON_INVALID_MTU = 26;
    public static final int REASON_CONSUMER_DEFINED = 28;

    public CmRejFlyweight wrap(DirectBuffer buffer, int offset) {
        wrapBuffer(buffer, offset);
        return this;
    }

    /** Zeroes the 256 bytes, MAD header included. */
    public CmRejFlyweight clear() {
        clearMad();
        return this;
    }

    @Override
    public int attributeId() {
        return MadHeaderFlyweight.ATTR_REJ;
    }

    @Override
    public int privateDataOffset() {
        return PRIVATE_DATA_OFFSET;
    }

    public int localCommId() {
        return getInt32(LOCAL_COMM_ID_OFFSET);
    }

    public CmRejFlyweight localCommId(int commId) {
        putInt32(LOCAL_COMM_ID_OFFSET, commId);
        return this;
    }

    /** The peer's local comm ID, as its last message carried it. */
    public int remoteCommId() {
        return getInt32(REMOTE_COMM_ID_OFFSET);
    }

    public CmRejFlyweight remoteCommId(int commId) {
        putInt32(REMOTE_COMM_ID_OFFSET, commId);
        return this;
    }

    public int messageRejected() {
        return getBits(MESSAGE_REJECTED_OFFSET, 0, 2);
    }

    public CmRejFlyweight messageRejected(int message) {
        putBits(MESSAGE_REJECTED_OFFSET, 0, 2, message);
        return this;
    }

    public int rejectInfoLength() {
        return getBits(REJECT_INFO_LENGTH_OFFSET, 0, 7);
    }

    public CmRejFlyweight rejectInfoLength(int length) {
        putBits(REJECT_INFO_LENGTH_OFFSET, 0, 7, length);
        return this;
    }

    public int reason() {
        return getUint16(REASON_OFFSET);
    }

    public CmRejFlyweight reason(int reason) {
        putUint16(REASON_OFFSET, reason);
        return this;
    }

    /** Copies {@code length} bytes of additional reject information into {@code dst}. */
    public void getAdditionalRejectInfo(MutableDirectBuffer dst, int dstOffset, int length) {
        checkAriLength(length);
        getBytes(ADDITIONAL_REJECT_INFO_OFFSET, dst, dstOffset, length);
    }

    /** Writes the additional reject information; does not set {@link #rejectInfoLength(int)}. */
    public CmRejFlyweight additionalRejectInfo(DirectBuffer src, int srcOffset, int length) {
        checkAriLength(length);
        putBytes(ADDITIONAL_REJECT_INFO_OFFSET, src, srcOffset, length);
        return this;
    }

    private static void checkAriLength(int length) {
        if (length < 0 || length > ADDITIONAL_REJECT_INFO_LENGTH) {
            throw new IllegalArgumentException("additional reject information holds "
                + ADDITIONAL_REJECT_INFO_LENGTH + " bytes, not " + length);
        }
    }
}
