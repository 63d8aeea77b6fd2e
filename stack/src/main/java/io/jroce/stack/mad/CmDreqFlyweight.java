package io.jroce.stack.mad;

import org.agrona.DirectBuffer;

/**
 * DisconnectRequest, DREQ (IBTA Vol. 1 12.6.10 Table 112; include/rdma/ibta_vol1_c12.h
 * {@code struct cm_dreq_msg}). Offsets from the start of the MAD; IBTA's data offset is 24 less.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                    Local Communication ID                     | 24
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                    Remote Communication ID                    | 28
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                 Remote QPN/EECN               |   Reserved    | 32
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                  Private Data (220 bytes)                     | 36
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * The kernel ignores a DREQ whose remote QPN is not the receiver's QP (cm.c, cm_dreq_handler).
 */
public final class CmDreqFlyweight extends CmMessageFlyweight {
    public static final int LOCAL_COMM_ID_OFFSET = 24;
    public static final int REMOTE_COMM_ID_OFFSET = 28;
    public static final int REMOTE_QPN_OFFSET = 32;
    public static final int PRIVATE_DATA_OFFSET = 36;
    public static final int PRIVATE_DATA_LENGTH = LENGTH - PRIVATE_DATA_OFFSET;

    public CmDreqFlyweight wrap(DirectBuffer buffer, int offset) {
        wrapBuffer(buffer, offset);
        return this;
    }

    /** Zeroes the 256 bytes, MAD header included. */
    public CmDreqFlyweight clear() {
        clearMad();
        return this;
    }

    @Override
    public int attributeId() {
        return MadHeaderFlyweight.ATTR_DREQ;
    }

    @Override
    public int privateDataOffset() {
        return PRIVATE_DATA_OFFSET;
    }

    public int localCommId() {
        return getInt32(LOCAL_COMM_ID_OFFSET);
    }

    public CmDreqFlyweight localCommId(int commId) {
        putInt32(LOCAL_COMM_ID_OFFSET, commId);
        return this;
    }

    /** The peer's local comm ID, as its last message carried it. */
    public int remoteCommId() {
        return getInt32(REMOTE_COMM_ID_OFFSET);
    }

    public CmDreqFlyweight remoteCommId(int commId) {
        putInt32(REMOTE_COMM_ID_OFFSET, commId);
        return this;
    }

    /** 24 bits: the receiver's QP (the QPN the receiver announced in its REQ or REP). */
    public int remoteQpn() {
        return getUint24(REMOTE_QPN_OFFSET);
    }

    public CmDreqFlyweight remoteQpn(int qpn) {
        putUint24(REMOTE_QPN_OFFSET, qpn);
        return this;
    }
}
