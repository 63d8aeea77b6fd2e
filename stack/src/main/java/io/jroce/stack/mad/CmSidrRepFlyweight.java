package io.jroce.stack.mad;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * ServiceIDResolutionResponse, SIDR_REP (IBTA Vol. 1 12.11.2 Table 120; include/rdma/ibta_vol1_c12.h
 * {@code CM_SIDR_REP_*}, cm_msgs.h {@code struct cm_sidr_rep_msg}; statuses from include/rdma/ib_cm.h
 * {@code enum ib_cm_sidr_status}). Offsets from the start of the MAD; IBTA's data offset is 24 less.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                          Request ID                           | 24
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |    Status     |  InfoLength   |           Reserved            | 28
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                      QPN                      |   Reserved    | 32
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                       ServiceID (8 bytes)                     | 36
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                             Q_Key                             | 44
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |              Additional Information (72 bytes)                | 48
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                  Private Data (136 bytes)                     | 120
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
public final class CmSidrRepFlyweight extends CmMessageFlyweight {
    public static final int REQUEST_ID_OFFSET = 24;
    public static final int STATUS_OFFSET = 28;
    public static final int ADDITIONAL_INFO_LENGTH_OFFSET = 29;
    public static final int QPN_OFFSET = 32;
    public static final int SERVICE_ID_OFFSET = 36;
    public static final int Q_KEY_OFFSET = 44;
    public static final int ADDITIONAL_INFO_OFFSET = 48;
    public static final int ADDITIONAL_INFO_LENGTH = 72;
    public static final int PRIVATE_DATA_OFFSET = 120;
    public static final int PRIVATE_DATA_LENGTH = LENGTH - PRIVATE_DATA_OFFSET;

    // enum ib_cm_sidr_status (IBTA Table 121).
    /** The service is there: QPN and Q_Key are valid. */
    public static final int STATUS_SUCCESS = 0;
    /** No one serves the service ID (the kernel's answer when no listener matches). */
    public static final int STATUS_UNSUPPORTED = 1;
    /** The consumer refused the request (rdma_reject, or an ID destroyed before answering). */
    public static final int STATUS_REJECT = 2;
    public static final int STATUS_NO_QP = 3;
    public static final int STATUS_REDIRECT = 4;
    public static final int STATUS_UNSUPPORTED_VERSION = 5;

    public CmSidrRepFlyweight wrap(DirectBuffer buffer, int offset) {
        wrapBuffer(buffer, offset);
        return this;
    }

    /** Zeroes the 256 bytes, MAD header included. */
    public CmSidrRepFlyweight clear() {
        clearMad();
        return this;
    }

    @Override
    public int attributeId() {
        return MadHeaderFlyweight.ATTR_SIDR_REP;
    }

    @Override
    public int privateDataOffset() {
        return PRIVATE_DATA_OFFSET;
    }

    /** The SIDR_REQ's request ID, echoed. */
    public int requestId() {
        return getInt32(REQUEST_ID_OFFSET);
    }

    public CmSidrRepFlyweight requestId(int requestId) {
        putInt32(REQUEST_ID_OFFSET, requestId);
        return this;
    }

    public int status() {
        return getUint8(STATUS_OFFSET);
    }

    public CmSidrRepFlyweight status(int status) {
        putUint8(STATUS_OFFSET, status);
        return this;
    }

    public int additionalInfoLength() {
        return getUint8(ADDITIONAL_INFO_LENGTH_OFFSET);
    }

    public CmSidrRepFlyweight additionalInfoLength(int length) {
        putUint8(ADDITIONAL_INFO_LENGTH_OFFSET, length);
        return this;
    }

    /** The UD QP that serves the service (24 bits). */
    public int qpn() {
        return getUint24(QPN_OFFSET);
    }

    public CmSidrRepFlyweight qpn(int qpn) {
        putUint24(QPN_OFFSET, qpn);
        return this;
    }

    public long serviceId() {
        return getInt64(SERVICE_ID_OFFSET);
    }

    public CmSidrRepFlyweight serviceId(long serviceId) {
        putInt64(SERVICE_ID_OFFSET, serviceId);
        return this;
    }

    /** The Q_Key the service's QP takes. */
    public int qKey() {
        return getInt32(Q_KEY_OFFSET);
    }

    public CmSidrRepFlyweight qKey(int qkey) {
        putInt32(Q_KEY_OFFSET, qkey);
        return this;
    }

    /** Copies {@code length} bytes of additional information into {@code dst}. */
    public void getAdditionalInfo(MutableDirectBuffer dst, int dstOffset, int length) {
        checkInfoLength(length);
        getBytes(ADDITIONAL_INFO_OFFSET, dst, dstOffset, length);
    }

    /** Writes the additional information; does not set {@link #additionalInfoLength(int)}. */
    public CmSidrRepFlyweight additionalInfo(DirectBuffer src, int srcOffset, int length) {
        checkInfoLength(length);
        putBytes(ADDITIONAL_INFO_OFFSET, src, srcOffset, length);
        return this;
    }

    private static void checkInfoLength(int length) {
        if (length < 0 || length > ADDITIONAL_INFO_LENGTH) {
            throw new IllegalArgumentException("additional information holds " + ADDITIONAL_INFO_LENGTH
                + " bytes, not " + length);
        }
    }
}
