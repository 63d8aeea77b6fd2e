package io.jroce.stack.mad;

import org.agrona.DirectBuffer;

/**
 * DisconnectReply, DREP (IBTA Vol. 1 12.6.11 Table 113; include/rdma/ibta_vol1_c12.h
 * {@code struct cm_drep_msg}): the answer to a DREQ; it echoes the DREQ's transaction ID.
 * Offsets from the start of the MAD; IBTA's data offset is 24 less.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                    Local Communication ID                     | 24
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                    Remote Communication ID                    | 28
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                  Private Data (224 bytes)                     | 32
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
public final class CmDrepFlyweight extends CmMessageFlyweight {
    public static final int LOCAL_COMM_ID_OFFSET = 24;
    public static final int REMOTE_COMM_ID_OFFSET = 28;
    public static final int PRIVATE_DATA_OFFSET = 32;
    public static final int PRIVATE_DATA_LENGTH = LENGTH - PRIVATE_DATA_OFFSET;

    public CmDrepFlyweight wrap(DirectBuffer buffer, int offset) {
        wrapBuffer(buffer, offset);
        return this;
    }

    /** Zeroes the 256 bytes, MAD header included. */
    public CmDrepFlyweight clear() {
        clearMad();
        return this;
    }

    @Override
    public int attributeId() {
        return MadHeaderFlyweight.ATTR_DREP;
    }

    @Override
    public int privateDataOffset() {
        return PRIVATE_DATA_OFFSET;
    }

    public int localCommId() {
        return getInt32(LOCAL_COMM_ID_OFFSET);
    }

    public CmDrepFlyweight localCommId(int commId) {
        putInt32(LOCAL_COMM_ID_OFFSET, commId);
        return this;
    }

    /** The peer's local comm ID, as its last message carried it (the DREQ's local comm ID). */
    public int remoteCommId() {
        return getInt32(REMOTE_COMM_ID_OFFSET);
    }

    public CmDrepFlyweight remoteCommId(int commId) {
        putInt32(REMOTE_COMM_ID_OFFSET, commId);
        return this;
    }
}
