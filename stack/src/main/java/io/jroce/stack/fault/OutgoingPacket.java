package io.jroce.stack.fault;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;

import io.jroce.stack.wire.AethKind;
import io.jroce.stack.wire.AethSyndrome;
import io.jroce.stack.wire.ExtensionHeader;
import io.jroce.stack.wire.OpcodeInfo;
import io.jroce.stack.wire.OpcodeTable;
import io.jroce.stack.wire.Operation;

/**
 * What a {@link PacketMatch} sees of one packet as it is sent: the time, the addresses, and the
 * RoCE packet from the BTH on. Read from the bytes on each call, so that it needs no parsing up
 * front and a transport can reuse one instance for every packet (valid only during the decision).
 */
public final class OutgoingPacket {
    private long timeNs;
    private byte[] src;
    private byte[] dst;
    private DirectBuffer buffer;
    private int offset;
    private int length;

    /** Points this view at the next packet; {@code length} excludes any ICRC. */
    public OutgoingPacket wrap(long timeNs, byte[] src, byte[] dst, DirectBuffer buffer, int offset, int length) {
        this.timeNs = timeNs;
        this.src = src;
        this.dst = dst;
        this.buffer = buffer;
        this.offset = offset;
        this.length = length;
        return this;
    }

    /** When the packet is sent, on the transport's clock. */
    public long timeNs() {
        return timeNs;
    }

    /** 16 bytes; not to be modified. */
    public byte[] src() {
        return src;
    }

    /** 16 bytes; not to be modified. */
    public byte[] dst() {
        return dst;
    }

    public DirectBuffer buffer() {
        return buffer;
    }

    public int offset() {
        return offset;
    }

    /** BTH to payload and pad, without the ICRC. */
    public int length() {
        return length;
    }

    private boolean hasBth() {
        return length >= 12;
    }

    /** The BTH opcode, or -1 for a datagram too short to have one. */
    public int opcode() {
        return hasBth() ? buffer.getByte(offset) & 0xFF : -1;
    }

    /** The BTH PSN, or -1 for a datagram too short to have one. */
    public int psn() {
        return hasBth() ? buffer.getInt(offset + 8, ByteOrder.BIG_ENDIAN) & 0xFFFFFF : -1;
    }

    /** The opcode's table entry, or null for an unknown opcode. */
    public OpcodeInfo info() {
        return hasBth() ? OpcodeTable.get(opcode()) : null;
    }

    /** The operation, or null for an unknown opcode. */
    public Operation operation() {
        OpcodeInfo info = info();
        return info == null ? null : info.operation();
    }

    /** The AETH syndrome byte, or -1 when the packet carries no AETH. */
    public int aethSyndrome() {
        OpcodeInfo info = info();
        if (info == null || !info.has(ExtensionHeader.AETH)) {
            return -1;
        }
        int at = info.offset(ExtensionHeader.AETH);
        return at < length ? buffer.getByte(offset + at) & 0xFF : -1;
    }

    /** The kind of the AETH (ACK, RNR NAK, NAK), or null when the packet carries none. */
    public AethKind aethKind() {
        int syndrome = aethSyndrome();
        return syndrome < 0 ? null : AethSyndrome.kind(syndrome);
    }
}
