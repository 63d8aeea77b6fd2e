package io.jroce.stack.mad;

import org.agrona.DirectBuffer;

/**
 * MessageReceiptAcknowledgement, MRA (IBTA Vol. 1 12.6.6; include/rdma/ibta_vol1_c12.h
 * {@code struct cm_mra_msg}): asks the peer to wait longer for the answer to a REQ, REP or LAP.
 * Offsets from the start of the MAD; IBTA's data offset is 24 less.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                    Local Communication ID                     | 24
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                    Remote Communication ID                    | 28
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |MsgM|  Rsv6     | SvcTmout| Rsv |  Private Data (222 bytes)... | 32
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * MsgM: message MRAed (2 bits: {@link #MRAED_REQ}, {@link #MRAED_REP}, {@link #MRAED_OTHER}), SvcTmout:
 * service timeout (5 bits, 4.096 us * 2^value).
 */
public final class CmMraFlyweight extends CmMessageFlyweight {
    public static final int LOCAL_COMM_ID_OFFSET = 24;
    public static final int REMOTE_COMM_ID_OFFSET = 28;
    /** Message MRAed (2 bits), 6 reserved bits. */
    public static final int MESSAGE_MRAED_OFFSET = 32;
    /** Service timeout (5 bits), 3 reserved bits. */
    public static final int SERVICE_TIMEOUT_OFFSET = 33;
    public static final int PRIVATE_DATA_OFFSET = 34;
    public static final int PRIVATE_DATA_LENGTH = LENGTH - PRIVATE_DATA_OFFSET;

    public static final int MRAED_REQ = 0;
    public static final int MRAED_REP = 1;
    public static final int MRAED_OTHER = 2;

    public CmMraFlyweight wrap(DirectBuffer buffer, int offset) {
        wrapBuffer(buffer, offset);
        return this;
    }

    /** Zeroes the 256 bytes, MAD header included. */
    public CmMraFlyweight clear() {
        clearMad();
        return this;
    }

    @Override
    public int attributeId() {
        return MadHeaderFlyweight.ATTR_MRA;
    }

    @Override
    public int privateDataOffset() {
        return PRIVATE_DATA_OFFSET;
    }

    public int localCommId() {
        return getInt32(LOCAL_COMM_ID_OFFSET);
    }

    public CmMraFlyweight localCommId(int commId) {
        putInt32(LOCAL_COMM_ID_OFFSET, commId);
        return this;
    }

    /** The peer's local comm ID, as its last message carried it. */
    public int remoteCommId() {
        return getInt32(REMOTE_COMM_ID_OFFSET);
    }

    public CmMraFlyweight remoteCommId(int commId) {
        putInt32(REMOTE_COMM_ID_OFFSET, commId);
        return this;
    }

    public int messageMraed() {
        return getBits(MESSAGE_MRAED_OFFSET, 0, 2);
    }

    public CmMraFlyweight messageMraed(int message) {
        putBits(MESSAGE_MRAED_OFFSET, 0, 2, message);
        return this;
    }

    public int serviceTimeout() {
        return getBits(SERVICE_TIMEOUT_OFFSET, 0, 5);
    }

    public CmMraFlyweight serviceTimeout(int timeout) {
        putBits(SERVICE_TIMEOUT_OFFSET, 0, 5, timeout);
        return this;
    }
}
