package io.jroce.stack.fabric;

import org.agrona.concurrent.UnsafeBuffer;

/** One datagram in flight on the fabric: the RoCE packet with its ICRC, and its addressing. */
public final class FabricDatagram {
    final long sequence;
    /** When it arrives; set by the fabric before the datagram is queued, never while queued. */
    long deliverAtNs;
    final byte[] src;
    final int srcPort;
    final byte[] dst;
    final int dstPort;
    final UnsafeBuffer packet;
    /** The sender's number for the packet (its event log's frame), 0 for none; a copy keeps its original's. */
    final long frame;

    FabricDatagram(long sequence, long deliverAtNs, byte[] src, int srcPort, byte[] dst, int dstPort, byte[] packet,
                   long frame) {
        this.sequence = sequence;
        this.frame = frame;
        this.deliverAtNs = deliverAtNs;
        this.src = src;
        this.srcPort = srcPort;
        this.dst = dst;
        this.dstPort = dstPort;
        this.packet = new UnsafeBuffer(packet);
    }

    /**
     * The packet, BTH to ICRC inclusive (tests may flip bits in it).
     *
     * @return the packet buffer
     */
    public UnsafeBuffer packet() {
        return packet;
    }

    /**
     * The fabric's number for this datagram, in send order (a duplicate has a number of its own).
     *
     * @return the sequence number
     */
    public long sequence() {
        return sequence;
    }

    /**
     * The sender's number for the packet, as its event log's {@code packet_sent} names it; a copy
     * has its original's.
     *
     * @return the frame number, 0 when the sender gave none
     */
    public long frame() {
        return frame;
    }

    /**
     * Sender address, 16 bytes (IPv4-mapped for IPv4).
     *
     * @return the address (not a copy)
     */
    public byte[] src() {
        return src.clone();
    }

    /**
     * Receiver address, 16 bytes (IPv4-mapped for IPv4).
     *
     * @return the address (not a copy)
     */
    public byte[] dst() {
        return dst.clone();
    }

    /**
     * Sender UDP port.
     *
     * @return the port
     */
    public int srcPort() {
        return srcPort;
    }

    /**
     * Receiver UDP port.
     *
     * @return the port
     */
    public int dstPort() {
        return dstPort;
    }

    /**
     * The packet's BTH opcode, read from the packet as it is now.
     *
     * @return the opcode
     */
    public int opcode() {
        return packet.getByte(0) & 0xFF;
    }

    /**
     * The packet's BTH PSN, read from the packet as it is now.
     *
     * @return the 24-bit PSN
     */
    public int psn() {
        return packet.getInt(8, java.nio.ByteOrder.BIG_ENDIAN) & 0xFFFFFF;
    }

    /**
     * The packet's BTH destination QP, read from the packet as it is now.
     *
     * @return the 24-bit QP number
     */
    public int destQp() {
        return packet.getInt(4, java.nio.ByteOrder.BIG_ENDIAN) & 0xFFFFFF;
    }
}
