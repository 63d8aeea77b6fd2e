package io.jroce.stack.mad;

import org.agrona.DirectBuffer;

/**
 * ServiceIDResolutionRequest, SIDR_REQ (IBTA Vol. 1 12.11.1 Table 119; include/rdma/ibta_vol1_c12.h
 * {@code CM_SIDR_REQ_*}, cm_msgs.h {@code struct cm_sidr_req_msg}): asks a service for the UD QP and
 * Q_Key that serve it. Offsets from the start of the MAD; IBTA's data offset is 24 less.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                          Request ID                           | 24
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |           P_Key               |           Reserved            | 28
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                       ServiceID (8 bytes)                     | 32
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                  Private Data (216 bytes)                     | 40
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * The kernel puts its CM ID's local ID in the request ID ({@code cm_format_sidr_req}) and forms the
 * TID from it as for a REQ ({@link CmTransactionId}); the SIDR_REP echoes both.
 */
public final class CmSidrReqFlyweight extends CmMessageFlyweight {
    public static final int REQUEST_ID_OFFSET = 24;
    public static final int PARTITION_KEY_OFFSET = 28;
    public static final int SERVICE_ID_OFFSET = 32;
    public static final int PRIVATE_DATA_OFFSET = 40;
    public static final int PRIVATE_DATA_LENGTH = LENGTH - PRIVATE_DATA_OFFSET;

    public CmSidrReqFlyweight wrap(DirectBuffer buffer, int offset) {
        wrapBuffer(buffer, offset);
        return this;
    }

    /** Zeroes the 256 bytes, MAD header included. */
    public CmSidrReqFlyweight clear() {
        clearMad();
        return this;
    }

    @Override
    public int attributeId() {
        return MadHeaderFlyweight.ATTR_SIDR_REQ;
    }

    @Override
    public int privateDataOffset() {
        return PRIVATE_DATA_OFFSET;
    }

    public int requestId() {
        return getInt32(REQUEST_ID_OFFSET);
    }

    public CmSidrReqFlyweight requestId(int requestId) {
        putInt32(REQUEST_ID_OFFSET, requestId);
        return this;
    }

    public int partitionKey() {
        return getUint16(PARTITION_KEY_OFFSET);
    }

    public CmSidrReqFlyweight partitionKey(int pkey) {
        putUint16(PARTITION_KEY_OFFSET, pkey);
        return this;
    }

    public long serviceId() {
        return getInt64(SERVICE_ID_OFFSET);
    }

    public CmSidrReqFlyweight serviceId(long serviceId) {
        putInt64(SERVICE_ID_OFFSET, serviceId);
        return this;
    }
}
