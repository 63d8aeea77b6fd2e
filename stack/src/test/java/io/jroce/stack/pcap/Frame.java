package io.jroce.stack.pcap;

import io.jroce.stack.icrc.IcrcCalculator;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One captured Ethernet frame taken apart by hand, with checksum oracles that share no code with
 * the writer: what a test reads back from a capture.
 */
record Frame(int etherType, byte[] ipHeader, byte[] src16, byte[] dst16, int ipId, int flagsFragment, int ttl,
             int srcPort, int dstPort, int udpLength, int udpChecksum, boolean udpChecksumValid,
             byte[] roce, int icrc) {
    static final int ETHERTYPE_IPV4 = 0x0800;
    static final int ETHERTYPE_IPV6 = 0x86DD;

    static Frame parse(PcapReader.Record r) {
        byte[] d = r.data();
        ByteBuffer b = ByteBuffer.wrap(d);
        int etherType = b.getShort(12) & 0xFFFF;
        int ip = 14;
        byte[] src16 = new byte[16];
        byte[] dst16 = new byte[16];
        int udp;
        int ipId = 0;
        int flags = 0;
        int ttl;
        byte[] pseudo;
        if (etherType == ETHERTYPE_IPV4) {
            udp = ip + 20;
            ipId = b.getShort(ip + 4) & 0xFFFF;
            flags = b.getShort(ip + 6) & 0xFFFF;
            ttl = d[ip + 8] & 0xFF;
            src16[10] = src16[11] = dst16[10] = dst16[11] = (byte) 0xFF;
            System.arraycopy(d, ip + 12, src16, 12, 4);
            System.arraycopy(d, ip + 16, dst16, 12, 4);
            pseudo = new byte[12];
            System.arraycopy(d, ip + 12, pseudo, 0, 8);
            pseudo[9] = 17;
        } else if (etherType == ETHERTYPE_IPV6) {
            udp = ip + 40;
            ttl = d[ip + 7] & 0xFF;
            System.arraycopy(d, ip + 8, src16, 0, 16);
            System.arraycopy(d, ip + 24, dst16, 0, 16);
            pseudo = new byte[40];
            System.arraycopy(d, ip + 8, pseudo, 0, 32);
            pseudo[39] = 17;
        } else {
            throw new AssertionError("frame " + r.index() + ": ethertype 0x" + Integer.toHexString(etherType));
        }
        int udpLength = b.getShort(udp + 4) & 0xFFFF;
        if (etherType == ETHERTYPE_IPV4) {
            pseudo[10] = (byte) (udpLength >>> 8); // zero, protocol, then the UDP length
            pseudo[11] = (byte) udpLength;
        } else {
            pseudo[34] = (byte) (udpLength >>> 8); // 32-bit upper-layer length, 3 zero bytes, next header
            pseudo[35] = (byte) udpLength;
        }
        byte[] udpBytes = Arrays.copyOfRange(d, udp, udp + udpLength);
        int roceLength = udpLength - 8 - IcrcCalculator.ICRC_LENGTH;
        byte[] roce = Arrays.copyOfRange(d, udp + 8, udp + 8 + roceLength);
        int icrc = IcrcCalculator.readIcrc(new UnsafeBuffer(d), udp + 8 + roceLength);
        boolean udpValid = onesComplementSum(pseudo, udpBytes) == 0xFFFF;
        return new Frame(etherType, Arrays.copyOfRange(d, ip, udp), src16, dst16, ipId, flags, ttl,
            b.getShort(udp) & 0xFFFF, b.getShort(udp + 2) & 0xFFFF, udpLength, b.getShort(udp + 6) & 0xFFFF,
            udpValid, roce, icrc);
    }

    boolean ipv4() {
        return etherType == ETHERTYPE_IPV4;
    }

    /** RFC 1071 check of the IPv4 header: the sum over it, checksum included, is all ones. */
    boolean ipv4HeaderChecksumValid() {
        return onesComplementSum(ipHeader) == 0xFFFF;
    }

    /** The ICRC as computed for this frame's own IP and UDP fields. */
    int expectedIcrc() {
        IcrcCalculator c = new IcrcCalculator();
        UnsafeBuffer r = new UnsafeBuffer(roce);
        if (ipv4()) {
            return c.computeIpv4(ByteBuffer.wrap(src16, 12, 4).getInt(), ByteBuffer.wrap(dst16, 12, 4).getInt(),
                ipId, flagsFragment, srcPort, dstPort, r, 0, roce.length);
        }
        return c.computeIpv6(src16, dst16, srcPort, dstPort, r, 0, roce.length);
    }

    static int onesComplementSum(byte[]... parts) {
        long sum = 0;
        for (byte[] p : parts) {
            for (int i = 0; i < p.length; i += 2) {
                int hi = p[i] & 0xFF;
                int lo = i + 1 < p.length ? p[i + 1] & 0xFF : 0;
                sum += hi << 8 | lo;
            }
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (int) sum;
    }
}
