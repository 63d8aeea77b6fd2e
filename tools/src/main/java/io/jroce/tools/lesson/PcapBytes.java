package io.jroce.tools.lesson;

import io.jroce.stack.transport.IpAddresses;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * A lesson's frames as a classic pcap file (nanosecond timestamps, link type RAW: each record an
 * IPv4 packet) that Wireshark and {@code jroce explain} open. The IPv4 header is the one the
 * fabric's ICRC was computed over (identification 0, DF, TTL 64), so the ICRC verifies; the UDP
 * checksum is 0, which IPv4 allows.
 */
final class PcapBytes {
    private static final int MAGIC_NANOS = 0xa1b23c4d;
    private static final int LINKTYPE_RAW = 101;
    private static final int IPV4_HEADER = 20;
    private static final int UDP_HEADER = 8;

    private PcapBytes() {
    }

    static byte[] of(List<WireFrame> frames) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer header = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        header.putInt(MAGIC_NANOS).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(262_144)
            .putInt(LINKTYPE_RAW);
        out.writeBytes(header.array());
        for (WireFrame f : frames) {
            byte[] packet = ipv4(f);
            ByteBuffer record = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
            record.putInt((int) (f.timeNs() / 1_000_000_000L)).putInt((int) (f.timeNs() % 1_000_000_000L))
                .putInt(packet.length).putInt(packet.length);
            out.writeBytes(record.array());
            out.writeBytes(packet);
        }
        return out.toByteArray();
    }

    private static byte[] ipv4(WireFrame f) {
        int udpLength = UDP_HEADER + f.roce().length;
        ByteBuffer b = ByteBuffer.allocate(IPV4_HEADER + udpLength); // big-endian, as on the wire
        b.put((byte) 0x45).put((byte) 0).putShort((short) (IPV4_HEADER + udpLength)).putShort((short) 0)
            .putShort((short) 0x4000).put((byte) 64).put((byte) 17).putShort((short) 0)
            .putInt(IpAddresses.ipv4(f.src16())).putInt(IpAddresses.ipv4(f.dst16()));
        b.putShort(10, (short) checksum(b.array(), IPV4_HEADER));
        b.putShort((short) f.srcPort()).putShort((short) f.dstPort()).putShort((short) udpLength).putShort((short) 0);
        b.put(f.roce());
        return b.array();
    }

    /** The Internet checksum (RFC 1071) of the first {@code length} bytes. */
    private static int checksum(byte[] bytes, int length) {
        int sum = 0;
        for (int i = 0; i < length; i += 2) {
            sum += ((bytes[i] & 0xFF) << 8) | (bytes[i + 1] & 0xFF);
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return ~sum & 0xFFFF;
    }
}
