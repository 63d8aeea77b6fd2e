package io.jroce.stack.fault;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;

import io.jroce.stack.wire.AethKind;
import io.jroce.stack.wire.AethSyndrome;
import io.jroce.stack.wire.ExtensionHeader;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.OpcodeInfo;
import io.jroce.stack.wire.OpcodeTable;
import io.jroce.stack.wire.Operation;

/**
 * What a {@link PacketMatch} sees of one packet as it is sent: the time, the addresses, and the
 * RoCE packet from the BTH on. Read from the bytes on each call, so that it needs no parsing up
 * front and a transport can reuse one instance for every packet (valid only during the decision).
 */
public final class OutgoingPacket {
    /** A MAD follows the BTH (12 bytes) and DETH (8) of a UD SEND Only to QP1 (IBTA 13.4.2). */
    private static final int MAD_OFFSET = 20;
    private static final int MAD_CLASS_OFFSET = 1;
    private static final int MAD_ATTRIBUTE_ID_OFFSET = 16;
    private static final int MAD_HEADER_LENGTH = 24;
    private static final int GSI_QPN = 1;
    private long timeNs;
    private byte[] src;
    private byte[] dst;
    private DirectBuffer buffer;
    private int offset;
    private int length;

    /**
     * Points this view at the next packet; {@code length} excludes any ICRC.
     *
     * @param timeNs when it is sent
     * @param src the sender's address, 16 bytes
     * @param dst the receiver's address, 16 bytes
     * @param buffer the buffer holding the packet
     * @param offset where its BTH starts
     * @param length its length without the ICRC
     * @return this view
     */
    public OutgoingPacket wrap(long timeNs, byte[] src, byte[] dst, DirectBuffer buffer, int offset, int length) {
        this.timeNs = timeNs;
        this.src = src;
        this.dst = dst;
        this.buffer = buffer;
        this.offset = offset;
        this.length = length;
        return this;
    }

    /**
     * When the packet is sent, on the transport's clock.
     *
     * @return nanoseconds
     */
    public long timeNs() {
        return timeNs;
    }

    /**
     * 16 bytes; not to be modified.
     *
     * @return the sender's address
     */
    public byte[] src() {
        return src;
    }

    /**
     * 16 bytes; not to be modified.
     *
     * @return the receiver's address
     */
    public byte[] dst() {
        return dst;
    }

    /**
     * The buffer holding the packet.
     *
     * @return the buffer
     */
    public DirectBuffer buffer() {
        return buffer;
    }

    /**
     * Where the packet's BTH starts in {@link #buffer()}.
     *
     * @return the offset
     */
    public int offset() {
        return offset;
    }

    /**
     * BTH to payload and pad, without the ICRC.
     *
     * @return the length in bytes
     */
    public int length() {
        return length;
    }

    private boolean hasBth() {
        return length >= 12;
    }

    /**
     * The BTH opcode, or -1 for a datagram too short to have one.
     *
     * @return the opcode, or -1
     */
    public int opcode() {
        return hasBth() ? buffer.getByte(offset) & 0xFF : -1;
    }

    /**
     * The BTH PSN, or -1 for a datagram too short to have one.
     *
     * @return the 24-bit PSN, or -1
     */
    public int psn() {
        return hasBth() ? buffer.getInt(offset + 8, ByteOrder.BIG_ENDIAN) & 0xFFFFFF : -1;
    }

    /**
     * The BTH destination QP, or -1 for a datagram too short to have one.
     *
     * @return the 24-bit QP number, or -1
     */
    public int destQp() {
        return hasBth() ? buffer.getInt(offset + 4, ByteOrder.BIG_ENDIAN) & 0xFFFFFF : -1;
    }

    /**
     * The opcode's table entry, or null for an unknown opcode.
     *
     * @return the entry, or null
     */
    public OpcodeInfo info() {
        return hasBth() ? OpcodeTable.get(opcode()) : null;
    }

    /**
     * The operation, or null for an unknown opcode.
     *
     * @return the operation, or null
     */
    public Operation operation() {
        OpcodeInfo info = info();
        return info == null ? null : info.operation();
    }

    /**
     * The AETH syndrome byte, or -1 when the packet carries no AETH.
     *
     * @return the syndrome, or -1
     */
    public int aethSyndrome() {
        OpcodeInfo info = info();
        if (info == null || !info.has(ExtensionHeader.AETH)) {
            return -1;
        }
        int at = info.offset(ExtensionHeader.AETH);
        return at < length ? buffer.getByte(offset + at) & 0xFF : -1;
    }

    /**
     * The management class of the MAD this packet carries (a UD SEND Only to QP1 with at least a MAD
     * header after the DETH), or -1 when it carries none.
     *
     * @return the class, or -1
     */
    public int madClass() {
        return carriesMad() ? buffer.getByte(offset + MAD_OFFSET + MAD_CLASS_OFFSET) & 0xFF : -1;
    }

    /**
     * The attribute ID of the MAD this packet carries, or -1 when it carries none.
     *
     * @return the attribute ID, or -1
     */
    public int madAttributeId() {
        return carriesMad() ? buffer.getShort(offset + MAD_OFFSET + MAD_ATTRIBUTE_ID_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF
            : -1;
    }

    private boolean carriesMad() {
        return opcode() == Opcode.UD_SEND_ONLY && length >= MAD_OFFSET + MAD_HEADER_LENGTH
            && (buffer.getInt(offset + 4, ByteOrder.BIG_ENDIAN) & 0xFFFFFF) == GSI_QPN;
    }

    /**
     * The kind of the AETH (ACK, RNR NAK, NAK), or null when the packet carries none.
     *
     * @return the kind, or null
     */
    public AethKind aethKind() {
        int syndrome = aethSyndrome();
        return syndrome < 0 ? null : AethSyndrome.kind(syndrome);
    }
}
