package io.jroce.stack.mad;

import org.agrona.DirectBuffer;

/**
 * One path of a REQ (IBTA Vol. 1 12.6.5 Table 106: the primary path at REQ data byte 52, the
 * alternate at 96; include/rdma/ibta_vol1_c12.h CM_REQ_PRIMARY_* and CM_REQ_ALTERNATE_*): 44 bytes,
 * offsets below from the path's first byte.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |        Local Port LID         |        Remote Port LID        |  0
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                  Local Port GID (16 bytes)                    |  4
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                  Remote Port GID (16 bytes)                   | 20
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |               Flow Label                |   Rsv6    |PacketRate | 36
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  | Traffic Class |   Hop Limit   |  SL   |L| Rsv | AckTmout|  *  | 40
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * L: subnet local. *: the three bits after the local ACK timeout, reserved in the primary path; in
 * the alternate path the first of them is the REQ's SAP Supported bit ({@link CmReqFlyweight}).
 * On RoCEv2 the kernel sends LIDs 0xFFFF when the hop limit exceeds 1, the GIDs as IPv4-mapped or
 * IPv6 addresses, and an alternate path of zeros.
 */
public final class CmPathFlyweight extends MadFlyweight {
    public static final int LOCAL_PORT_LID_OFFSET = 0;
    public static final int REMOTE_PORT_LID_OFFSET = 2;
    public static final int LOCAL_PORT_GID_OFFSET = 4;
    public static final int REMOTE_PORT_GID_OFFSET = 20;
    /** The word holding the 20-bit flow label, 6 reserved bits and the 6-bit packet rate. */
    public static final int FLOW_LABEL_OFFSET = 36;
    public static final int PACKET_RATE_OFFSET = 39;
    public static final int TRAFFIC_CLASS_OFFSET = 40;
    public static final int HOP_LIMIT_OFFSET = 41;
    /** SL (4 bits), subnet local (1), 3 reserved bits. */
    public static final int SL_OFFSET = 42;
    /** Local ACK timeout (5 bits), then 3 bits the path does not own. */
    public static final int LOCAL_ACK_TIMEOUT_OFFSET = 43;
    public static final int LENGTH = 44;
    public static final int GID_LENGTH = 16;

    private static final int FLOW_LABEL_SHIFT = 12;
    private static final int FLOW_LABEL_MASK = 0xF_FFFF;

    public CmPathFlyweight wrap(DirectBuffer buffer, int offset) {
        wrapBuffer(buffer, offset);
        return this;
    }

    @Override
    public int length() {
        return LENGTH;
    }

    public int localPortLid() {
        return getUint16(LOCAL_PORT_LID_OFFSET);
    }

    public CmPathFlyweight localPortLid(int lid) {
        putUint16(LOCAL_PORT_LID_OFFSET, lid);
        return this;
    }

    public int remotePortLid() {
        return getUint16(REMOTE_PORT_LID_OFFSET);
    }

    public CmPathFlyweight remotePortLid(int lid) {
        putUint16(REMOTE_PORT_LID_OFFSET, lid);
        return this;
    }

    /** Copies the 16-byte local port GID into {@code dst} from {@code dstOffset}. */
    public void getLocalPortGid(byte[] dst, int dstOffset) {
        getBytes(LOCAL_PORT_GID_OFFSET, dst, dstOffset, GID_LENGTH);
    }

    public CmPathFlyweight localPortGid(byte[] src, int srcOffset) {
        putBytes(LOCAL_PORT_GID_OFFSET, src, srcOffset, GID_LENGTH);
        return this;
    }

    public void getRemotePortGid(byte[] dst, int dstOffset) {
        getBytes(REMOTE_PORT_GID_OFFSET, dst, dstOffset, GID_LENGTH);
    }

    public CmPathFlyweight remotePortGid(byte[] src, int srcOffset) {
        putBytes(REMOTE_PORT_GID_OFFSET, src, srcOffset, GID_LENGTH);
        return this;
    }

    /** 20 bits; on RoCEv2 the kernel derives it from the UDP ports (cma.c, cma_get_roce_udp_flow_label). */
    public int flowLabel() {
        return (getInt32(FLOW_LABEL_OFFSET) >>> FLOW_LABEL_SHIFT) & FLOW_LABEL_MASK;
    }

    public CmPathFlyweight flowLabel(int flowLabel) {
        int word = getInt32(FLOW_LABEL_OFFSET) & ~(FLOW_LABEL_MASK << FLOW_LABEL_SHIFT);
        putInt32(FLOW_LABEL_OFFSET, word | (flowLabel & FLOW_LABEL_MASK) << FLOW_LABEL_SHIFT);
        return this;
    }

    /** The 6 reserved bits between the flow label and the packet rate; sent as 0. */
    public int reservedAfterFlowLabel() {
        return (getUint16(FLOW_LABEL_OFFSET + 2) >>> 6) & 0x3F;
    }

    public CmPathFlyweight reservedAfterFlowLabel(int value) {
        int half = getUint16(FLOW_LABEL_OFFSET + 2) & ~(0x3F << 6);
        putUint16(FLOW_LABEL_OFFSET + 2, half | (value & 0x3F) << 6);
        return this;
    }

    /** 6 bits, IBTA's static rate encoding (0 on RoCE from the kernel). */
    public int packetRate() {
        return getBits(PACKET_RATE_OFFSET, 2, 6);
    }

    public CmPathFlyweight packetRate(int rate) {
        putBits(PACKET_RATE_OFFSET, 2, 6, rate);
        return this;
    }

    public int trafficClass() {
        return getUint8(TRAFFIC_CLASS_OFFSET);
    }

    public CmPathFlyweight trafficClass(int trafficClass) {
        putUint8(TRAFFIC_CLASS_OFFSET, trafficClass);
        return this;
    }

    public int hopLimit() {
        return getUint8(HOP_LIMIT_OFFSET);
    }

    public CmPathFlyweight hopLimit(int hopLimit) {
        putUint8(HOP_LIMIT_OFFSET, hopLimit);
        return this;
    }

    /** Service level, 4 bits. */
    public int sl() {
        return getBits(SL_OFFSET, 0, 4);
    }

    public CmPathFlyweight sl(int sl) {
        putBits(SL_OFFSET, 0, 4, sl);
        return this;
    }

    /** Set when the path does not leave the subnet (the kernel: hop limit at most 1). */
    public boolean subnetLocal() {
        return getBits(SL_OFFSET, 4, 1) != 0;
    }

    public CmPathFlyweight subnetLocal(boolean subnetLocal) {
        putBits(SL_OFFSET, 4, 1, subnetLocal ? 1 : 0);
        return this;
    }

    /** The 3 reserved bits after subnet local; sent as 0. */
    public int reservedAfterSubnetLocal() {
        return getBits(SL_OFFSET, 5, 3);
    }

    public CmPathFlyweight reservedAfterSubnetLocal(int value) {
        putBits(SL_OFFSET, 5, 3, value);
        return this;
    }

    /** 5 bits, 4.096 us * 2^value: the QP's ACK timeout for this path. */
    public int localAckTimeout() {
        return getBits(LOCAL_ACK_TIMEOUT_OFFSET, 0, 5);
    }

    public CmPathFlyweight localAckTimeout(int timeout) {
        putBits(LOCAL_ACK_TIMEOUT_OFFSET, 0, 5, timeout);
        return this;
    }
}
