package io.jroce.rnic.core;

import java.nio.ByteOrder;

import org.agrona.concurrent.UnsafeBuffer;

import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.transport.IpAddresses;

/**
 * Builds the 40 bytes that precede a UD message in the receive buffer. On RoCEv2 verbs put the
 * network header there: the IPv6 header, or the IPv4 header in the last 20 bytes with the first
 * 20 zeroed (as rxe and libibverbs' ibv_wc_read_... expect). A UDP socket does not report the
 * traffic class, flow label, TTL/hop limit or IPv4 ID of a datagram: those fields are 0.
 */
final class GrhWriter {
    static final int GRH_LENGTH = 40;
    private static final int UDP = 17;
    private final UnsafeBuffer grh = new UnsafeBuffer(new byte[GRH_LENGTH]);

    /**
     * @param roceLength BTH to the end of the pad, without the ICRC
     * @return the 40 bytes, valid until the next call
     */
    UnsafeBuffer write(byte[] src, byte[] dst, int roceLength) {
        grh.setMemory(0, GRH_LENGTH, (byte) 0);
        int udpLength = 8 + roceLength + IcrcCalculator.ICRC_LENGTH;
        if (IpAddresses.isIpv4Mapped(src)) {
            int h = 20;
            grh.putByte(h, (byte) 0x45);
            grh.putShort(h + 2, (short) (20 + udpLength), ByteOrder.BIG_ENDIAN);
            grh.putShort(h + 6, (short) 0x4000, ByteOrder.BIG_ENDIAN); // DF, as RoCEv2 senders set it
            grh.putByte(h + 9, (byte) UDP);
            grh.putBytes(h + 12, src, 12, 4);
            grh.putBytes(h + 16, dst, 12, 4);
            grh.putShort(h + 10, (short) checksum(h), ByteOrder.BIG_ENDIAN);
        } else {
            grh.putInt(0, 0x6000_0000, ByteOrder.BIG_ENDIAN);
            grh.putShort(4, (short) udpLength, ByteOrder.BIG_ENDIAN);
            grh.putByte(6, (byte) UDP);
            grh.putBytes(8, src, 0, 16);
            grh.putBytes(24, dst, 0, 16);
        }
        return grh;
    }

    private int checksum(int offset) {
        int sum = 0;
        for (int i = 0; i < 20; i += 2) {
            sum += grh.getShort(offset + i, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return ~sum & 0xFFFF;
    }

}
