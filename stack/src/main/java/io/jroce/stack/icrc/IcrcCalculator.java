package io.jroce.stack.icrc;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Computes the RoCEv2 invariant CRC (ICRC) of one packet, given the addresses and ports of the
 * IP and UDP headers it travels in (IBTA Vol. 1 Annex A17; the exact rule, checked against rxe
 * captures, is in docs/udp-transport.md).
 *
 * <p>The CRC is {@link CRC32} (a JIT intrinsic) over the "masked" packet:
 * <pre>
 *   8 x 0xFF                       the LRH that RoCEv2 does not carry, all masked
 *   IPv4: 45 FF len len id id ff ff FF 11 FF FF src(4) dst(4)     (TOS, TTL, checksum masked)
 *   IPv6: 6F FF FF FF len len 11 FF src(16) dst(16)               (class, flow label, hop limit masked)
 *   UDP:  sport sport dport dport len len FF FF                   (checksum masked)
 *   BTH:  12 bytes with byte 4 (reserved, after the P_Key) masked to FF
 *   rest: extension headers, payload and pad as they are
 * </pre>
 * The IP and UDP lengths are derived from the RoCE length plus the 4 ICRC bytes; the IPv4 header is
 * the 20-byte one without options. On the wire the ICRC is the CRC value in little-endian order
 * ({@link #readIcrc}, {@link #writeIcrc}).
 *
 * <p>Allocation-free after construction; not thread-safe: keep one per thread. The packet is
 * read straight from its buffer: a byte array, or a {@link ByteBuffer} whose position and limit
 * are moved for the duration of the call and restored (so that buffer must not be used by another
 * thread meanwhile); a buffer over a raw address is streamed through a small direct scratch.
 */
public final class IcrcCalculator {
    /** Bytes of ICRC at the end of every RoCEv2 packet. */
    public static final int ICRC_LENGTH = 4;
    /** Length of the Base Transport Header, the shortest RoCEv2 packet before its ICRC. */
    public static final int BTH_LENGTH = 12;
    /** The IPv4 flags/fragment-offset word with only Don't Fragment set, as rxe and Linux send it. */
    public static final int IPV4_FLAGS_DF = 0x4000;
    /** Longest RoCE packet (BTH to pad, without ICRC) that fits in an IPv4 datagram. */
    public static final int MAX_IPV4_ROCE_LENGTH = 0xFFFF - 20 - 8 - ICRC_LENGTH;
    /** Longest RoCE packet (BTH to pad, without ICRC) that fits in an IPv6 payload without jumbograms. */
    public static final int MAX_IPV6_ROCE_LENGTH = 0xFFFF - 8 - ICRC_LENGTH;

    private static final int UDP_PROTOCOL = 17;
    private static final int MASKED_LRH = 8;
    private static final int IPV4_PREFIX = MASKED_LRH + 20 + 8; // masked LRH, IPv4, UDP
    private static final int IPV6_PREFIX = MASKED_LRH + 40 + 8; // masked LRH, IPv6, UDP
    private static final int BTH_RESERVED_BYTE = 4;
    private static final int STREAM_SCRATCH = 2048;
    /**
     * Packets up to this long (BTH to pad) are copied whole behind the pseudo-header and covered by
     * one CRC call: each call of the intrinsic has a fixed cost (its checks, the stub's entry, for a
     * buffer the position and limit moved and restored) larger than the copy of a small packet.
     */
    static final int COPY_WHOLE_MAX = 256;

    private final CRC32 crc = new CRC32();
    /** Masked pseudo-headers up to and including the BTH (or the whole small packet), rebuilt per call. */
    private final byte[] head = new byte[IPV6_PREFIX + COPY_WHOLE_MAX];
    private ByteBuffer streamScratch;

    /**
     * A calculator with its own scratch space; one per thread.
     */
    public IcrcCalculator() {
        for (int i = 0; i < MASKED_LRH; i++) {
            head[i] = (byte) 0xFF;
        }
    }

    /**
     * The ICRC of a RoCE packet carried in IPv4.
     *
     * @param srcIpv4           source address, big-endian in an int (as in the header)
     * @param dstIpv4           destination address
     * @param ipId              the 16-bit identification field
     * @param flagsFragment     the 16-bit flags/fragment-offset word, e.g. {@link #IPV4_FLAGS_DF}
     * @param roce              the packet from its BTH
     * @param off               index of the BTH in {@code roce}
     * @param lengthWithoutIcrc BTH, extension headers, payload and pad
     * @param srcPort the UDP source port
     * @param dstPort the UDP destination port
     * @return the ICRC, as an int
     */
    public int computeIpv4(int srcIpv4, int dstIpv4, int ipId, int flagsFragment, int srcPort, int dstPort,
                           DirectBuffer roce, int off, int lengthWithoutIcrc) {
        checkLength(lengthWithoutIcrc, MAX_IPV4_ROCE_LENGTH);
        byte[] h = head;
        int udpLength = 8 + lengthWithoutIcrc + ICRC_LENGTH;
        int p = MASKED_LRH;
        h[p] = 0x45;
        h[p + 1] = (byte) 0xFF; // TOS
        putShort(h, p + 2, 20 + udpLength);
        putShort(h, p + 4, ipId);
        putShort(h, p + 6, flagsFragment);
        h[p + 8] = (byte) 0xFF; // TTL
        h[p + 9] = UDP_PROTOCOL;
        h[p + 10] = (byte) 0xFF; // header checksum
        h[p + 11] = (byte) 0xFF;
        putInt(h, p + 12, srcIpv4);
        putInt(h, p + 16, dstIpv4);
        return finish(IPV4_PREFIX, srcPort, dstPort, udpLength, roce, off, lengthWithoutIcrc);
    }

    /**
     * The ICRC of a RoCE packet carried in IPv6 (next header UDP, no extension headers).
     *
     * @param src16 source address, 16 bytes
     * @param dst16 destination address, 16 bytes
     * @see #computeIpv4
     * @param srcPort the UDP source port
     * @param dstPort the UDP destination port
     * @param roce the packet from its BTH
     * @param off index of the BTH in {@code roce}
     * @param lengthWithoutIcrc BTH, extension headers, payload and pad
     * @return the ICRC, as an int
     */
    public int computeIpv6(byte[] src16, byte[] dst16, int srcPort, int dstPort,
                           DirectBuffer roce, int off, int lengthWithoutIcrc) {
        checkLength(lengthWithoutIcrc, MAX_IPV6_ROCE_LENGTH);
        if (src16.length != 16 || dst16.length != 16) {
            throw new IllegalArgumentException("IPv6 addresses are 16 bytes: got " + src16.length + " and " + dst16.length);
        }
        byte[] h = head;
        int udpLength = 8 + lengthWithoutIcrc + ICRC_LENGTH;
        int p = MASKED_LRH;
        h[p] = 0x6F; // version 6, traffic class and flow label masked
        h[p + 1] = (byte) 0xFF;
        h[p + 2] = (byte) 0xFF;
        h[p + 3] = (byte) 0xFF;
        putShort(h, p + 4, udpLength); // payload length
        h[p + 6] = UDP_PROTOCOL;
        h[p + 7] = (byte) 0xFF; // hop limit
        System.arraycopy(src16, 0, h, p + 8, 16);
        System.arraycopy(dst16, 0, h, p + 24, 16);
        return finish(IPV6_PREFIX, srcPort, dstPort, udpLength, roce, off, lengthWithoutIcrc);
    }

    /**
     * Reads the ICRC stored little-endian at {@code index}.
     *
     * @param buffer the buffer
     * @param index where the ICRC starts
     * @return the ICRC
     */
    public static int readIcrc(DirectBuffer buffer, int index) {
        return buffer.getInt(index, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Stores {@code icrc} little-endian at {@code index}, as it goes on the wire.
     *
     * @param buffer the buffer
     * @param index where the ICRC goes
     * @param icrc the ICRC
     */
    public static void writeIcrc(MutableDirectBuffer buffer, int index, int icrc) {
        buffer.putInt(index, icrc, ByteOrder.LITTLE_ENDIAN);
    }

    private int finish(int prefix, int srcPort, int dstPort, int udpLength,
                       DirectBuffer roce, int off, int lengthWithoutIcrc) {
        byte[] h = head;
        int u = prefix - 8;
        putShort(h, u, srcPort);
        putShort(h, u + 2, dstPort);
        putShort(h, u + 4, udpLength);
        h[u + 6] = (byte) 0xFF; // UDP checksum
        h[u + 7] = (byte) 0xFF;
        roce.boundsCheck(off, lengthWithoutIcrc); // the whole packet, even where Agrona's own checks are off
        boolean whole = lengthWithoutIcrc <= COPY_WHOLE_MAX;
        int copied = whole ? lengthWithoutIcrc : BTH_LENGTH;
        roce.getBytes(off, h, prefix, copied);
        h[prefix + BTH_RESERVED_BYTE] = (byte) 0xFF;

        CRC32 c = crc;
        c.reset();
        c.update(h, 0, prefix + copied);
        if (!whole) {
            update(roce, off + BTH_LENGTH, lengthWithoutIcrc - BTH_LENGTH);
        }
        return (int) c.getValue();
    }

    /** The CRC over {@code length} bytes at {@code index}, which {@link #finish} has bounds-checked. */
    private void update(DirectBuffer buffer, int index, int length) {
        if (length == 0) {
            return;
        }
        byte[] array = buffer.byteArray();
        if (array != null) {
            crc.update(array, buffer.wrapAdjustment() + index, length);
            return;
        }
        ByteBuffer bb = buffer.byteBuffer();
        if (bb != null) {
            int start = buffer.wrapAdjustment() + index;
            int position = bb.position();
            int limit = bb.limit();
            try {
                bb.limit(start + length).position(start);
                crc.update(bb);
            } finally {
                bb.limit(limit).position(position);
            }
            return;
        }
        ByteBuffer scratch = streamScratch;
        if (scratch == null) {
            streamScratch = scratch = ByteBuffer.allocateDirect(STREAM_SCRATCH);
        }
        while (length > 0) {
            int chunk = Math.min(length, STREAM_SCRATCH);
            buffer.getBytes(index, scratch, 0, chunk);
            scratch.limit(chunk).position(0);
            crc.update(scratch);
            index += chunk;
            length -= chunk;
        }
    }

    private static void checkLength(int lengthWithoutIcrc, int max) {
        if (lengthWithoutIcrc < BTH_LENGTH || lengthWithoutIcrc > max) {
            throw new IllegalArgumentException(
                "RoCE packet length without ICRC must be " + BTH_LENGTH + ".." + max + ": " + lengthWithoutIcrc);
        }
    }

    private static void putShort(byte[] b, int i, int v) {
        b[i] = (byte) (v >>> 8);
        b[i + 1] = (byte) v;
    }

    private static void putInt(byte[] b, int i, int v) {
        b[i] = (byte) (v >>> 24);
        b[i + 1] = (byte) (v >>> 16);
        b[i + 2] = (byte) (v >>> 8);
        b[i + 3] = (byte) v;
    }
}
