package io.jroce.stack.wire;

import org.agrona.DirectBuffer;

/**
 * Base Transport Header, the first 12 bytes of every RoCEv2 packet after the UDP header
 * (IBTA Vol. 1 9.2).
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |    OpCode     |S|M|Pad|  TVer |            P_Key              |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |F|B|  Resv6a   |              Destination QP                   |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |A|   Resv7     |              Packet Sequence Number           |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * S: solicited event, M: MigReq, Pad: pad count, TVer: transport header version (0), F/B: FECN/BECN
 * (congestion notification, IBTA Annex A10), A: acknowledge request. The whole of byte 4 (F, B,
 * Resv6a) is masked to ones when the ICRC is computed (IBTA Annex A17), so it may change in flight.
 */
public final class BthFlyweight extends HeaderFlyweight {
    public static final int OPCODE_OFFSET = 0;
    public static final int FLAGS_OFFSET = 1;
    public static final int P_KEY_OFFSET = 2;
    /** Byte 4: FECN, BECN and six reserved bits. */
    public static final int RESERVED_OFFSET = 4;
    /** The 32-bit word whose low 24 bits are the destination QP. */
    public static final int DEST_QP_OFFSET = 4;
    /** The 32-bit word holding AckReq, 7 reserved bits and the PSN. */
    public static final int PSN_OFFSET = 8;
    public static final int LENGTH = 12;

    public static final int SOLICITED_EVENT_MASK = 0x80;
    public static final int MIG_REQ_MASK = 0x40;
    public static final int PAD_COUNT_MASK = 0x30;
    public static final int PAD_COUNT_SHIFT = 4;
    public static final int TVER_MASK = 0x0F;
    public static final int FECN_MASK = 0x80;
    public static final int BECN_MASK = 0x40;
    public static final int ACK_REQUEST_MASK = 0x80;
    public static final int RESERVED7_MASK = 0x7F;

    /** The only transport header version defined (IBTA Vol. 1 9.2); rxe drops any other. */
    public static final int TRANSPORT_VERSION = 0;
    /** The default partition key, full membership; rxe uses it on every QP. */
    public static final int DEFAULT_P_KEY = 0xFFFF;

    public BthFlyweight wrap(DirectBuffer buffer, int offset) {
        wrapBuffer(buffer, offset, LENGTH);
        return this;
    }

    @Override
    public int headerLength() {
        return LENGTH;
    }

    /** Zeroes all 12 bytes: setters keep neighbouring bits, so build a BTH on a cleared header. */
    public BthFlyweight clear() {
        clearHeader();
        return this;
    }

    public int opcode() {
        return getUint8(OPCODE_OFFSET);
    }

    public BthFlyweight opcode(int opcode) {
        putUint8(OPCODE_OFFSET, opcode);
        return this;
    }

    public boolean solicitedEvent() {
        return (getUint8(FLAGS_OFFSET) & SOLICITED_EVENT_MASK) != 0;
    }

    public BthFlyweight solicitedEvent(boolean solicitedEvent) {
        putFlag(FLAGS_OFFSET, SOLICITED_EVENT_MASK, solicitedEvent);
        return this;
    }

    public boolean migReq() {
        return (getUint8(FLAGS_OFFSET) & MIG_REQ_MASK) != 0;
    }

    public BthFlyweight migReq(boolean migReq) {
        putFlag(FLAGS_OFFSET, MIG_REQ_MASK, migReq);
        return this;
    }

    /** Bytes of padding after the payload that bring it to a multiple of 4 (0 to 3). */
    public int padCount() {
        return (getUint8(FLAGS_OFFSET) & PAD_COUNT_MASK) >>> PAD_COUNT_SHIFT;
    }

    public BthFlyweight padCount(int padCount) {
        int flags = getUint8(FLAGS_OFFSET) & ~PAD_COUNT_MASK;
        putUint8(FLAGS_OFFSET, flags | ((padCount << PAD_COUNT_SHIFT) & PAD_COUNT_MASK));
        return this;
    }

    public int transportVersion() {
        return getUint8(FLAGS_OFFSET) & TVER_MASK;
    }

    public BthFlyweight transportVersion(int version) {
        putUint8(FLAGS_OFFSET, (getUint8(FLAGS_OFFSET) & ~TVER_MASK) | (version & TVER_MASK));
        return this;
    }

    public int partitionKey() {
        return getUint16(P_KEY_OFFSET);
    }

    public BthFlyweight partitionKey(int pKey) {
        putUint16(P_KEY_OFFSET, pKey);
        return this;
    }

    /** Byte 4 as a whole: FECN, BECN and Resv6a. */
    public int reservedByte() {
        return getUint8(RESERVED_OFFSET);
    }

    public BthFlyweight reservedByte(int value) {
        putUint8(RESERVED_OFFSET, value);
        return this;
    }

    /** Forward explicit congestion notification. */
    public boolean fecn() {
        return (getUint8(RESERVED_OFFSET) & FECN_MASK) != 0;
    }

    public BthFlyweight fecn(boolean fecn) {
        putFlag(RESERVED_OFFSET, FECN_MASK, fecn);
        return this;
    }

    /** Backward explicit congestion notification. */
    public boolean becn() {
        return (getUint8(RESERVED_OFFSET) & BECN_MASK) != 0;
    }

    public BthFlyweight becn(boolean becn) {
        putFlag(RESERVED_OFFSET, BECN_MASK, becn);
        return this;
    }

    /** Destination QP number, 24 bits. */
    public int destQp() {
        return getUint24(DEST_QP_OFFSET);
    }

    public BthFlyweight destQp(int qpn) {
        putUint24(DEST_QP_OFFSET, qpn);
        return this;
    }

    /** AckReq: the requester asks the responder to acknowledge this packet. */
    public boolean ackRequest() {
        return (getUint8(PSN_OFFSET) & ACK_REQUEST_MASK) != 0;
    }

    public BthFlyweight ackRequest(boolean ackRequest) {
        putFlag(PSN_OFFSET, ACK_REQUEST_MASK, ackRequest);
        return this;
    }

    /** The 7 reserved bits after AckReq; sent as 0. */
    public int reserved7() {
        return getUint8(PSN_OFFSET) & RESERVED7_MASK;
    }

    public BthFlyweight reserved7(int value) {
        putUint8(PSN_OFFSET, (getUint8(PSN_OFFSET) & ~RESERVED7_MASK) | (value & RESERVED7_MASK));
        return this;
    }

    /** Packet sequence number, 24 bits; compare only with {@link Psn}. */
    public int psn() {
        return getUint24(PSN_OFFSET);
    }

    public BthFlyweight psn(int psn) {
        putUint24(PSN_OFFSET, psn);
        return this;
    }
}
