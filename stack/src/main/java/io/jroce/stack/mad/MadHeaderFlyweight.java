package io.jroce.stack.mad;

import org.agrona.DirectBuffer;

/**
 * The common MAD header (IBTA Vol. 1 13.4.3, the kernel's {@code struct ib_mad_hdr} in
 * include/rdma/ib_mad.h), the first 24 of a MAD's 256 bytes.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |  BaseVersion  |   MgmtClass   | ClassVersion  |R|   Method    |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |            Status             |         ClassSpecific         |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                    TransactionID (63:32)                      |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                    TransactionID (31:0)                       |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |          AttributeID          |           Reserved            |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                      AttributeModifier                        |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * R is the response bit, part of the method byte (a Send has none). The constants are those the
 * kernel's CM puts in every message (drivers/infiniband/core/cm.c, cm_format_mad_hdr).
 */
public final class MadHeaderFlyweight extends MadFlyweight {
    public static final int BASE_VERSION_OFFSET = 0;
    public static final int MGMT_CLASS_OFFSET = 1;
    public static final int CLASS_VERSION_OFFSET = 2;
    public static final int METHOD_OFFSET = 3;
    public static final int STATUS_OFFSET = 4;
    public static final int CLASS_SPECIFIC_OFFSET = 6;
    public static final int TRANSACTION_ID_OFFSET = 8;
    public static final int ATTRIBUTE_ID_OFFSET = 16;
    public static final int RESERVED_OFFSET = 18;
    public static final int ATTRIBUTE_MODIFIER_OFFSET = 20;
    public static final int LENGTH = 24;

    /** Every MAD is 256 bytes (IBTA Vol. 1 13.4.2): this header and 232 bytes of class data. */
    public static final int MAD_LENGTH = 256;
    public static final int DATA_LENGTH = MAD_LENGTH - LENGTH;

    /** IB_MGMT_BASE_VERSION. */
    public static final int BASE_VERSION = 1;
    /** The Communication Management class (IBTA Vol. 1 12.6, IB_MGMT_CLASS_CM). */
    public static final int MGMT_CLASS_CM = 0x07;
    /** IB_CM_CLASS_VERSION. */
    public static final int CM_CLASS_VERSION = 2;
    /** Every CM message is a Send: no MAD-level response, the CM protocol pairs them itself. */
    public static final int METHOD_SEND = 0x03;

    // CM attribute IDs (IBTA Vol. 1 12.6; include/rdma/ib_cm.h CM_*_ATTR_ID).
    public static final int ATTR_REQ = 0x0010;
    public static final int ATTR_MRA = 0x0011;
    public static final int ATTR_REJ = 0x0012;
    public static final int ATTR_REP = 0x0013;
    public static final int ATTR_RTU = 0x0014;
    public static final int ATTR_DREQ = 0x0015;
    public static final int ATTR_DREP = 0x0016;
    public static final int ATTR_SIDR_REQ = 0x0017;
    public static final int ATTR_SIDR_REP = 0x0018;

    public MadHeaderFlyweight wrap(DirectBuffer buffer, int offset) {
        wrapBuffer(buffer, offset);
        return this;
    }

    @Override
    public int length() {
        return LENGTH;
    }

    /** Zeroes the 24 bytes. */
    public MadHeaderFlyweight clear() {
        clearAll();
        return this;
    }

    /** Writes the four bytes every CM message starts with: version 1, class CM, version 2, Send. */
    public MadHeaderFlyweight cmSend(int attributeId, long transactionId) {
        return baseVersion(BASE_VERSION).mgmtClass(MGMT_CLASS_CM).classVersion(CM_CLASS_VERSION)
            .method(METHOD_SEND).attributeId(attributeId).transactionId(transactionId);
    }

    public int baseVersion() {
        return getUint8(BASE_VERSION_OFFSET);
    }

    public MadHeaderFlyweight baseVersion(int version) {
        putUint8(BASE_VERSION_OFFSET, version);
        return this;
    }

    public int mgmtClass() {
        return getUint8(MGMT_CLASS_OFFSET);
    }

    public MadHeaderFlyweight mgmtClass(int mgmtClass) {
        putUint8(MGMT_CLASS_OFFSET, mgmtClass);
        return this;
    }

    public int classVersion() {
        return getUint8(CLASS_VERSION_OFFSET);
    }

    public MadHeaderFlyweight classVersion(int version) {
        putUint8(CLASS_VERSION_OFFSET, version);
        return this;
    }

    /** The whole method byte, response bit included. */
    public int method() {
        return getUint8(METHOD_OFFSET);
    }

    public MadHeaderFlyweight method(int method) {
        putUint8(METHOD_OFFSET, method);
        return this;
    }

    public int status() {
        return getUint16(STATUS_OFFSET);
    }

    public MadHeaderFlyweight status(int status) {
        putUint16(STATUS_OFFSET, status);
        return this;
    }

    public int classSpecific() {
        return getUint16(CLASS_SPECIFIC_OFFSET);
    }

    public MadHeaderFlyweight classSpecific(int value) {
        putUint16(CLASS_SPECIFIC_OFFSET, value);
        return this;
    }

    /** The 64-bit transaction ID as the wire holds it, big-endian; see {@link CmTransactionId}. */
    public long transactionId() {
        return getInt64(TRANSACTION_ID_OFFSET);
    }

    public MadHeaderFlyweight transactionId(long tid) {
        putInt64(TRANSACTION_ID_OFFSET, tid);
        return this;
    }

    public int attributeId() {
        return getUint16(ATTRIBUTE_ID_OFFSET);
    }

    public MadHeaderFlyweight attributeId(int attributeId) {
        putUint16(ATTRIBUTE_ID_OFFSET, attributeId);
        return this;
    }

    /** The 16 reserved bits after the attribute ID; sent as 0. */
    public int reserved() {
        return getUint16(RESERVED_OFFSET);
    }

    public MadHeaderFlyweight reserved(int value) {
        putUint16(RESERVED_OFFSET, value);
        return this;
    }

    public int attributeModifier() {
        return getInt32(ATTRIBUTE_MODIFIER_OFFSET);
    }

    public MadHeaderFlyweight attributeModifier(int modifier) {
        putInt32(ATTRIBUTE_MODIFIER_OFFSET, modifier);
        return this;
    }
}
