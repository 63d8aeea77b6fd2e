package io.jroce.stack.pcap;

import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Writes one RoCEv2 packet as the Ethernet frame it travelled in: a Java socket sees neither the
 * Ethernet nor the IP header, so both are synthesised from what the transport knows.
 *
 * <p>Ethernet: locally administered MACs {@code 02:00} + the last four bytes of the IP address.
 * IPv4: 20 bytes, TOS 0, the given ID and flags (ID 0 with DF for what jroce sends; what
 * {@link io.jroce.stack.icrc.Ipv4IdRecovery} found for what it receives, so that the ICRC verifies),
 * TTL 64, a correct header checksum. IPv6: traffic class and flow label 0, next header UDP, hop
 * limit 64. UDP: a correct checksum, as the Linux kernel sends it for a Java socket. Then the
 * RoCE packet (BTH onwards) and its ICRC, little-endian as on the wire.
 */
final class FrameSynthesizer {
    static final int ETHERNET_HEADER = 14;
    static final int IPV4_HEADER = 20;
    static final int IPV6_HEADER = 40;
    static final int UDP_HEADER = 8;
    static final int ICRC = 4;
    static final int ETHERTYPE_IPV4 = 0x0800;
    static final int ETHERTYPE_IPV6 = 0x86DD;
    static final int TTL = 64;
    private static final int UDP_PROTOCOL = 17;

    private FrameSynthesizer() {
    }

    /** Length of the frame of an IPv4 packet with {@code roceLength} bytes before the ICRC. */
    static int ipv4FrameLength(int roceLength) {
        return ETHERNET_HEADER + IPV4_HEADER + UDP_HEADER + roceLength + ICRC;
    }

    static int ipv6FrameLength(int roceLength) {
        return ETHERNET_HEADER + IPV6_HEADER + UDP_HEADER + roceLength + ICRC;
    }

    /** Writes the IPv4 frame at {@code at}; returns its length. */
    static int ipv4(MutableDirectBuffer out, int at, int srcIpv4, int dstIpv4, int ipId, int flagsFragment,
                    int srcPort, int dstPort, DirectBuffer roce, int off, int roceLength, int icrc) {
        int udpLength = UDP_HEADER + roceLength + ICRC;
        ethernet(out, at, dstIpv4, srcIpv4, ETHERTYPE_IPV4);
        int ip = at + ETHERNET_HEADER;
        out.putByte(ip, (byte) 0x45);
        out.putByte(ip + 1, (byte) 0);
        out.putShort(ip + 2, (short) (IPV4_HEADER + udpLength), ByteOrder.BIG_ENDIAN);
        out.putShort(ip + 4, (short) ipId, ByteOrder.BIG_ENDIAN);
        out.putShort(ip + 6, (short) flagsFragment, ByteOrder.BIG_ENDIAN);
        out.putByte(ip + 8, (byte) TTL);
        out.putByte(ip + 9, (byte) UDP_PROTOCOL);
        out.putShort(ip + 10, (short) 0);
        out.putInt(ip + 12, srcIpv4, ByteOrder.BIG_ENDIAN);
        out.putInt(ip + 16, dstIpv4, ByteOrder.BIG_ENDIAN);
        out.putShort(ip + 10, (short) InternetChecksum.finish(InternetChecksum.add(0, out, ip, IPV4_HEADER)),
            ByteOrder.BIG_ENDIAN);

        int udp = ip + IPV4_HEADER;
        long pseudo = InternetChecksum.add(0, out, ip + 12, 8) + UDP_PROTOCOL + udpLength;
        udp(out, udp, srcPort, dstPort, udpLength, roce, off, roceLength, icrc, pseudo);
        return udp + udpLength - at;
    }

    /** Writes the IPv6 frame at {@code at}; returns its length. */
    static int ipv6(MutableDirectBuffer out, int at, byte[] src16, byte[] dst16, int srcPort, int dstPort,
                    DirectBuffer roce, int off, int roceLength, int icrc) {
        int udpLength = UDP_HEADER + roceLength + ICRC;
        ethernet(out, at, last4(dst16), last4(src16), ETHERTYPE_IPV6);
        int ip = at + ETHERNET_HEADER;
        out.putInt(ip, 0x6000_0000, ByteOrder.BIG_ENDIAN);
        out.putShort(ip + 4, (short) udpLength, ByteOrder.BIG_ENDIAN);
        out.putByte(ip + 6, (byte) UDP_PROTOCOL);
        out.putByte(ip + 7, (byte) TTL);
        out.putBytes(ip + 8, src16, 0, 16);
        out.putBytes(ip + 24, dst16, 0, 16);

        int udp = ip + IPV6_HEADER;
        long pseudo = InternetChecksum.add(0, out, ip + 8, 32) + UDP_PROTOCOL + udpLength;
        udp(out, udp, srcPort, dstPort, udpLength, roce, off, roceLength, icrc, pseudo);
        return udp + udpLength - at;
    }

    private static void udp(MutableDirectBuffer out, int udp, int srcPort, int dstPort, int udpLength,
                            DirectBuffer roce, int off, int roceLength, int icrc, long pseudoHeaderSum) {
        out.putShort(udp, (short) srcPort, ByteOrder.BIG_ENDIAN);
        out.putShort(udp + 2, (short) dstPort, ByteOrder.BIG_ENDIAN);
        out.putShort(udp + 4, (short) udpLength, ByteOrder.BIG_ENDIAN);
        out.putShort(udp + 6, (short) 0);
        out.putBytes(udp + UDP_HEADER, roce, off, roceLength);
        out.putInt(udp + UDP_HEADER + roceLength, icrc, ByteOrder.LITTLE_ENDIAN);
        int checksum = InternetChecksum.finish(InternetChecksum.add(pseudoHeaderSum, out, udp, udpLength));
        // RFC 768: a computed 0 is sent as 0xFFFF, since 0 means "no checksum".
        out.putShort(udp + 6, (short) (checksum == 0 ? 0xFFFF : checksum), ByteOrder.BIG_ENDIAN);
    }

    private static void ethernet(MutableDirectBuffer out, int at, int dstTail, int srcTail, int etherType) {
        mac(out, at, dstTail);
        mac(out, at + 6, srcTail);
        out.putShort(at + 12, (short) etherType, ByteOrder.BIG_ENDIAN);
    }

    /** A locally administered unicast MAC: 02:00 and four bytes of the IP address. */
    private static void mac(MutableDirectBuffer out, int at, int tail) {
        out.putByte(at, (byte) 0x02);
        out.putByte(at + 1, (byte) 0x00);
        out.putInt(at + 2, tail, ByteOrder.BIG_ENDIAN);
    }

    private static int last4(byte[] a16) {
        return (a16[12] & 0xFF) << 24 | (a16[13] & 0xFF) << 16 | (a16[14] & 0xFF) << 8 | a16[15] & 0xFF;
    }
}
