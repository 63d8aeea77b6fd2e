package io.jroce.stack.mad;

import org.agrona.DirectBuffer;

/**
 * ConnectRequest, REQ (IBTA Vol. 1 12.6.5 Table 106; include/rdma/ibta_vol1_c12.h
 * {@code struct cm_req_msg}). Offsets from the start of the MAD; IBTA's data offset is 24 less.
 * <pre>
 * MAD  data  field
 *  24     0  Local Communication ID (32)
 *  28     4  reserved (32)
 *  32     8  ServiceID (64)
 *  40    16  Local CA GUID (64)
 *  48    24  reserved (32)
 *  52    28  Local Q_Key (32)
 *  56    32  Local QPN (24)                | Responder Resources (8)
 *  60    36  Local EECN (24)               | Initiator Depth (8)
 *  64    40  Remote EECN (24)              | Remote CM Response Timeout (5), Transport Service Type (2), End-to-End Flow Control (1)
 *  68    44  Starting PSN (24)             | Local CM Response Timeout (5), Retry Count (3)
 *  72    48  Partition Key (16)            | Path MTU (4), RDC Exists (1), RNR Retry Count (3) | Max CM Retries (4), SRQ (1), Extended Transport Type (3)
 *  76    52  primary path (44 bytes, {@link CmPathFlyweight})
 * 120    96  alternate path (44 bytes; its last byte's bit 5 is SAP Supported)
 * 164   140  private data (92 bytes; the RDMA CM starts it with a {@link CmaHeaderFlyweight})
 * </pre>
 * Bit fields are listed from the most significant bit of their byte.
 */
public final class CmReqFlyweight extends CmMessageFlyweight {
    public static final int LOCAL_COMM_ID_OFFSET = 24;
    public static final int SERVICE_ID_OFFSET = 32;
    public static final int LOCAL_CA_GUID_OFFSET = 40;
    public static final int LOCAL_Q_KEY_OFFSET = 52;
    public static final int LOCAL_QPN_OFFSET = 56;
    public static final int RESPONDER_RESOURCES_OFFSET = 59;
    public static final int LOCAL_EECN_OFFSET = 60;
    public static final int INITIATOR_DEPTH_OFFSET = 63;
    public static final int REMOTE_EECN_OFFSET = 64;
    /** Remote CM response timeout (5 bits), transport service type (2), end-to-end flow control (1). */
    public static final int REMOTE_CM_RESPONSE_TIMEOUT_OFFSET = 67;
    public static final int STARTING_PSN_OFFSET = 68;
    /** Local CM response timeout (5 bits), retry count (3). */
    public static final int LOCAL_CM_RESPONSE_TIMEOUT_OFFSET = 71;
    public static final int PARTITION_KEY_OFFSET = 72;
    /** Path MTU (4 bits), RDC exists (1), RNR retry count (3). */
    public static final int PATH_MTU_OFFSET = 74;
    /** Max CM retries (4 bits), SRQ (1), extended transport type (3). */
    public static final int MAX_CM_RETRIES_OFFSET = 75;
    public static final int PRIMARY_PATH_OFFSET = 76;
    public static final int ALTERNATE_PATH_OFFSET = 120;
    /** The alternate path's local ACK timeout byte, whose bit 5 is SAP Supported. */
    public static final int SAP_SUPPORTED_OFFSET = ALTERNATE_PATH_OFFSET + CmPathFlyweight.LOCAL_ACK_TIMEOUT_OFFSET;
    public static final int PRIVATE_DATA_OFFSET = 164;
    public static final int PRIVATE_DATA_LENGTH = LENGTH - PRIVATE_DATA_OFFSET;

    /** Transport service types (IBTA Vol. 1 12.6.5): RC 0, UC 1, RD 2. */
    public static final int TRANSPORT_RC = 0;
    public static final int TRANSPORT_UC = 1;
    public static final int TRANSPORT_RD = 2;

    public CmReqFlyweight wrap(DirectBuffer buffer, int offset) {
        wrapBuffer(buffer, offset);
        return this;
    }

    /** Zeroes the 256 bytes, MAD header included. */
    public CmReqFlyweight clear() {
        clearMad();
        return this;
    }

    @Override
    public int attributeId() {
        return MadHeaderFlyweight.ATTR_REQ;
    }

    @Override
    public int privateDataOffset() {
        return PRIVATE_DATA_OFFSET;
    }

    /** Points {@code path} at this REQ's primary path. */
    public CmPathFlyweight primaryPath(CmPathFlyweight path) {
        return path.wrap(buffer(), offset() + PRIMARY_PATH_OFFSET);
    }

    /** Points {@code path} at this REQ's alternate path (zeros when there is none, as on RoCE). */
    public CmPathFlyweight alternatePath(CmPathFlyweight path) {
        return path.wrap(buffer(), offset() + ALTERNATE_PATH_OFFSET);
    }

    public int localCommId() {
        return getInt32(LOCAL_COMM_ID_OFFSET);
    }

    public CmReqFlyweight localCommId(int commId) {
        putInt32(LOCAL_COMM_ID_OFFSET, commId);
        return this;
    }

    /** The service ID; RDMA CM's is {@code (portSpace << 16) + port}, e.g. 0x0106_1C06 for TCP port 7174 (cma.c, cma_get_service_id). */
    public long serviceId() {
        return getInt64(SERVICE_ID_OFFSET);
    }

    public CmReqFlyweight serviceId(long serviceId) {
        putInt64(SERVICE_ID_OFFSET, serviceId);
        return this;
    }

    public long localCaGuid() {
        return getInt64(LOCAL_CA_GUID_OFFSET);
    }

    public CmReqFlyweight localCaGuid(long guid) {
        putInt64(LOCAL_CA_GUID_OFFSET, guid);
        return this;
    }

    /** Meaningful for RD only; the kernel sends 0 for RC and UC. */
    public int localQKey() {
        return getInt32(LOCAL_Q_KEY_OFFSET);
    }

    public CmReqFlyweight localQKey(int qKey) {
        putInt32(LOCAL_Q_KEY_OFFSET, qKey);
        return this;
    }

    /** 24 bits: the active side's QP. */
    public int localQpn() {
        return getUint24(LOCAL_QPN_OFFSET);
    }

    public CmReqFlyweight localQpn(int qpn) {
        putUint24(LOCAL_QPN_OFFSET, qpn);
        return this;
    }

    /** RDMA READs and atomics the sender accepts at once (its max_dest_rd_atomic). */
    public int responderResources() {
        return getUint8(RESPONDER_RESOURCES_OFFSET);
    }

    public CmReqFlyweight responderResources(int value) {
        putUint8(RESPONDER_RESOURCES_OFFSET, value);
        return this;
    }

    public int localEecn() {
        return getUint24(LOCAL_EECN_OFFSET);
    }

    public CmReqFlyweight localEecn(int eecn) {
        putUint24(LOCAL_EECN_OFFSET, eecn);
        return this;
    }

    /** RDMA READs and atomics the sender issues at once (its max_rd_atomic). */
    public int initiatorDepth() {
        return getUint8(INITIATOR_DEPTH_OFFSET);
    }

    public CmReqFlyweight initiatorDepth(int value) {
        putUint8(INITIATOR_DEPTH_OFFSET, value);
        return this;
    }

    public int remoteEecn() {
        return getUint24(REMOTE_EECN_OFFSET);
    }

    public CmReqFlyweight remoteEecn(int eecn) {
        putUint24(REMOTE_EECN_OFFSET, eecn);
        return this;
    }

    /** 5 bits, 4.096 us * 2^value: how long the passive side's CM may take to answer. */
    public int remoteCmResponseTimeout() {
        return getBits(REMOTE_CM_RESPONSE_TIMEOUT_OFFSET, 0, 5);
    }

    public CmReqFlyweight remoteCmResponseTimeout(int timeout) {
        putBits(REMOTE_CM_RESPONSE_TIMEOUT_OFFSET, 0, 5, timeout);
        return this;
    }

    /** 2 bits: {@link #TRANSPORT_RC}, {@link #TRANSPORT_UC} or {@link #TRANSPORT_RD}. */
    public int transportServiceType() {
        return getBits(REMOTE_CM_RESPONSE_TIMEOUT_OFFSET, 5, 2);
    }

    public CmReqFlyweight transportServiceType(int type) {
        putBits(REMOTE_CM_RESPONSE_TIMEOUT_OFFSET, 5, 2, type);
        return this;
    }

    public boolean endToEndFlowControl() {
        return getBits(REMOTE_CM_RESPONSE_TIMEOUT_OFFSET, 7, 1) != 0;
    }

    public CmReqFlyweight endToEndFlowControl(boolean flowControl) {
        putBits(REMOTE_CM_RESPONSE_TIMEOUT_OFFSET, 7, 1, flowControl ? 1 : 0);
        return this;
    }

    /** 24 bits: the PSN of the active side's first request packet. */
    public int startingPsn() {
        return getUint24(STARTING_PSN_OFFSET);
    }

    public CmReqFlyweight startingPsn(int psn) {
        putUint24(STARTING_PSN_OFFSET, psn);
        return this;
    }

    public int localCmResponseTimeout() {
        return getBits(LOCAL_CM_RESPONSE_TIMEOUT_OFFSET, 0, 5);
    }

    public CmReqFlyweight localCmResponseTimeout(int timeout) {
        putBits(LOCAL_CM_RESPONSE_TIMEOUT_OFFSET, 0, 5, timeout);
        return this;
    }

    /** 3 bits: transport retries on ACK timeout (7 from the RDMA CM's clamp). */
    public int retryCount() {
        return getBits(LOCAL_CM_RESPONSE_TIMEOUT_OFFSET, 5, 3);
    }

    public CmReqFlyweight retryCount(int count) {
        putBits(LOCAL_CM_RESPONSE_TIMEOUT_OFFSET, 5, 3, count);
        return this;
    }

    public int partitionKey() {
        return getUint16(PARTITION_KEY_OFFSET);
    }

    public CmReqFlyweight partitionKey(int pKey) {
        putUint16(PARTITION_KEY_OFFSET, pKey);
        return this;
    }

    /** 4 bits, IBTA's MTU encoding: 1 = 256 ... 5 = 4096 bytes. */
    public int pathMtu() {
        return getBits(PATH_MTU_OFFSET, 0, 4);
    }

    public CmReqFlyweight pathMtu(int mtu) {
        putBits(PATH_MTU_OFFSET, 0, 4, mtu);
        return this;
    }

    public boolean rdcExists() {
        return getBits(PATH_MTU_OFFSET, 4, 1) != 0;
    }

    public CmReqFlyweight rdcExists(boolean exists) {
        putBits(PATH_MTU_OFFSET, 4, 1, exists ? 1 : 0);
        return this;
    }

    /** 3 bits: retries on RNR NAK, 7 meaning without limit. */
    public int rnrRetryCount() {
        return getBits(PATH_MTU_OFFSET, 5, 3);
    }

    public CmReqFlyweight rnrRetryCount(int count) {
        putBits(PATH_MTU_OFFSET, 5, 3, count);
        return this;
    }

    /** 4 bits: how often the active side resends this REQ before giving up. */
    public int maxCmRetries() {
        return getBits(MAX_CM_RETRIES_OFFSET, 0, 4);
    }

    public CmReqFlyweight maxCmRetries(int retries) {
        putBits(MAX_CM_RETRIES_OFFSET, 0, 4, retries);
        return this;
    }

    /** The active side's QP takes its receives from a shared receive queue. */
    public boolean srq() {
        return getBits(MAX_CM_RETRIES_OFFSET, 4, 1) != 0;
    }

    public CmReqFlyweight srq(boolean srq) {
        putBits(MAX_CM_RETRIES_OFFSET, 4, 1, srq ? 1 : 0);
        return this;
    }

    /** 3 bits, used with XRC; 0 otherwise. */
    public int extendedTransportType() {
        return getBits(MAX_CM_RETRIES_OFFSET, 5, 3);
    }

    public CmReqFlyweight extendedTransportType(int type) {
        putBits(MAX_CM_RETRIES_OFFSET, 5, 3, type);
        return this;
    }

    public boolean sapSupported() {
        return getBits(SAP_SUPPORTED_OFFSET, 5, 1) != 0;
    }

    public CmReqFlyweight sapSupported(boolean supported) {
        putBits(SAP_SUPPORTED_OFFSET, 5, 1, supported ? 1 : 0);
        return this;
    }
}
