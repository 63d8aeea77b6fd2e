package io.jroce.stack.pcap;

import java.nio.ByteOrder;
import org.agrona.DirectBuffer;

/**
 * The 16-bit ones' complement sum of RFC 1071, for the IPv4 header checksum and the UDP checksum
 * of synthesised frames: without them tshark would flag every frame (IPv6 requires a UDP checksum).
 */
final class InternetChecksum {
    private InternetChecksum() {
    }

    /** Adds the big-endian 16-bit words of {@code length} bytes to {@code sum}; an odd last byte is padded with 0. */
    static long add(long sum, DirectBuffer buffer, int index, int length) {
        int end = index + (length & ~1);
        for (int i = index; i < end; i += 2) {
            sum += buffer.getShort(i, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        }
        if ((length & 1) != 0) {
            sum += (buffer.getByte(index + length - 1) & 0xFF) << 8;
        }
        return sum;
    }

    /** Folds the carries of {@code sum} and complements it: the value that goes into the header. */
    static int finish(long sum) {
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (int) ~sum & 0xFFFF;
    }
}
