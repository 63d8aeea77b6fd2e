package io.jroce.stack.icrc;

import io.jroce.stack.pcap.PcapReader;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/** One RoCEv2 packet out of a test capture, with the IP/UDP fields its ICRC depends on. */
record CapturedRocePacket(String file, int frame, boolean ipv6, byte[] src16, byte[] dst16,
                          int ipId, int flagsFragment, int srcPort, int dstPort,
                          byte[] roce, int icrc, byte[] ipToEnd) {

    static final int ROCE_PORT = 4791;

    String where() {
        return file + " frame " + frame;
    }

    int srcIpv4() {
        return ByteBuffer.wrap(src16, 12, 4).getInt();
    }

    int dstIpv4() {
        return ByteBuffer.wrap(dst16, 12, 4).getInt();
    }

    /**
     * An oracle independent of {@link IcrcCalculator}: CRC32 over the frame's own IP header,
     * UDP header and RoCE bytes with the masked fields overwritten in place.
     */
    int maskedCrcOfFrameBytes() {
        byte[] m = ipToEnd.clone();
        int udp;
        if (ipv6) {
            m[0] = (byte) (m[0] | 0x0F);
            m[1] = m[2] = m[3] = (byte) 0xFF;
            m[7] = (byte) 0xFF;
            udp = 40;
        } else {
            m[1] = (byte) 0xFF;
            m[8] = (byte) 0xFF;
            m[10] = m[11] = (byte) 0xFF;
            udp = (m[0] & 0x0F) * 4;
        }
        m[udp + 6] = m[udp + 7] = (byte) 0xFF;
        m[udp + 8 + 4] = (byte) 0xFF;
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        byte[] lrh = new byte[8];
        Arrays.fill(lrh, (byte) 0xFF);
        crc.update(lrh);
        crc.update(m, 0, m.length - 4);
        return (int) crc.getValue();
    }

    /** Every RoCEv2 packet of every capture under {@code /captures}; fails on any other frame. */
    static List<CapturedRocePacket> all() {
        List<CapturedRocePacket> out = new ArrayList<>();
        for (Path p : captureFiles()) {
            try (InputStream in = Files.newInputStream(p)) {
                for (PcapReader.Record r : PcapReader.read(in)) {
                    out.add(parse(p.getFileName().toString(), r));
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
        return out;
    }

    static List<Path> captureFiles() {
        URL url = CapturedRocePacket.class.getResource("/captures");
        if (url == null) {
            throw new IllegalStateException("no /captures on the test classpath");
        }
        try (Stream<Path> s = Files.list(Path.of(url.toURI()))) {
            return s.filter(f -> f.toString().endsWith(".pcap")).sorted().toList();
        } catch (IOException | URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static CapturedRocePacket parse(String file, PcapReader.Record r) {
        if (r.linkType() != PcapReader.LINKTYPE_ETHERNET) {
            throw new IllegalStateException(file + ": link type " + r.linkType());
        }
        ByteBuffer b = ByteBuffer.wrap(r.data());
        int ip = 14;
        int etherType = b.getShort(12) & 0xFFFF;
        if (etherType == 0x8100) {
            etherType = b.getShort(16) & 0xFFFF;
            ip = 18;
        }
        byte[] src16 = new byte[16];
        byte[] dst16 = new byte[16];
        int udp;
        int ipId = 0;
        int flags = 0;
        boolean ipv6;
        if (etherType == 0x0800) {
            ipv6 = false;
            int ihl = (b.get(ip) & 0x0F) * 4;
            if (ihl != 20 || b.get(ip + 9) != 17) {
                throw new IllegalStateException(file + " frame " + r.index() + ": not a plain IPv4/UDP header");
            }
            ipId = b.getShort(ip + 4) & 0xFFFF;
            flags = b.getShort(ip + 6) & 0xFFFF;
            src16[10] = src16[11] = dst16[10] = dst16[11] = (byte) 0xFF;
            b.get(ip + 12, src16, 12, 4);
            b.get(ip + 16, dst16, 12, 4);
            udp = ip + ihl;
        } else if (etherType == 0x86DD) {
            ipv6 = true;
            if (b.get(ip + 6) != 17) {
                throw new IllegalStateException(file + " frame " + r.index() + ": IPv6 next header is not UDP");
            }
            b.get(ip + 8, src16);
            b.get(ip + 24, dst16);
            udp = ip + 40;
        } else {
            throw new IllegalStateException(file + " frame " + r.index() + ": ethertype 0x" + Integer.toHexString(etherType));
        }
        int srcPort = b.getShort(udp) & 0xFFFF;
        int dstPort = b.getShort(udp + 2) & 0xFFFF;
        int udpLength = b.getShort(udp + 4) & 0xFFFF;
        if (dstPort != ROCE_PORT) {
            throw new IllegalStateException(file + " frame " + r.index() + ": UDP port " + dstPort);
        }
        int roceLength = udpLength - 8 - 4;
        byte[] roce = Arrays.copyOfRange(r.data(), udp + 8, udp + 8 + roceLength);
        int icrc = Integer.reverseBytes(b.getInt(udp + 8 + roceLength));
        byte[] ipToEnd = Arrays.copyOfRange(r.data(), ip, udp + udpLength);
        return new CapturedRocePacket(file, r.index(), ipv6, src16, dst16, ipId, flags, srcPort, dstPort,
            roce, icrc, ipToEnd);
    }
}
