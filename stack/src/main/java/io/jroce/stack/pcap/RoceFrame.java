package io.jroce.stack.pcap;

import io.jroce.stack.icrc.IcrcCalculator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One captured frame taken apart as RoCEv2: Ethernet (with at most one VLAN tag), a Linux cooked
 * capture or raw IP; IPv4 or IPv6,
 * UDP, then the RoCE packet from its BTH and the ICRC after it. Addresses are kept as 16 bytes
 * (IPv4 mapped into ::ffff:0:0/96, as a RoCEv2 GID holds it), and the IPv4 identification and
 * flags because the ICRC covers them ({@link IcrcCheck}). Not for hot paths: every frame is copied.
 *
 * @param index         the frame's number in its capture, from 1 (as tshark counts)
 * @param roce          BTH, extension headers, payload and pad, without the ICRC
 * @param icrc          the ICRC as it was on the wire (read little-endian)
 */
public record RoceFrame(int index, boolean ipv6, byte[] src16, byte[] dst16, int ipId, int flagsFragment,
                        int srcPort, int dstPort, byte[] roce, int icrc) {
    static final int ETHERTYPE_IPV4 = 0x0800;
    static final int ETHERTYPE_IPV6 = 0x86DD;
    static final int ETHERTYPE_VLAN = 0x8100;
    /** An Ethernet frame without its FCS is padded to this length: shorter RoCE packets carry trailing zeros. */
    static final int MIN_ETHERNET_FRAME = 60;
    private static final int UDP_PROTOCOL = 17;
    private static final int UDP_HEADER = 8;

    /**
     * Every frame of the pcap {@code file}; throws naming the file and frame of the first that is not RoCEv2.
     *
     * @param file the capture
     * @return the frames, in capture order
     * @throws IOException the file cannot be read, or a frame is not RoCEv2
     */
    public static List<RoceFrame> read(Path file) throws IOException {
        List<PcapReader.Record> records;
        try (InputStream in = Files.newInputStream(file)) {
            records = PcapReader.read(in);
        }
        List<RoceFrame> frames = new ArrayList<>(records.size());
        for (PcapReader.Record r : records) {
            try {
                frames.add(parse(r));
            } catch (IOException e) {
                throw new IOException(file + " " + e.getMessage(), e);
            }
        }
        return frames;
    }

    /**
     * Takes {@code r} apart; throws an {@link IOException} saying why when it is not a RoCEv2 packet
     * in an Ethernet frame (at most one VLAN tag), a Linux cooked capture (SLL, SLL2) or a raw IP
     * packet.
     *
     * @param r a captured frame
     * @return the frame taken apart
     * @throws IOException it is not a RoCEv2 packet in one of those
     */
    public static RoceFrame parse(PcapReader.Record r) throws IOException {
        String where = "frame " + r.index();
        byte[] d = r.data();
        ByteBuffer b = ByteBuffer.wrap(d);
        int ip;
        int etherType;
        switch (r.linkType()) {
            case PcapReader.LINKTYPE_ETHERNET -> {
                need(d, 14, where);
                ip = 14;
                etherType = b.getShort(12) & 0xFFFF;
                if (etherType == ETHERTYPE_VLAN) {
                    need(d, 18, where);
                    etherType = b.getShort(16) & 0xFFFF;
                    ip = 18;
                }
            }
            case PcapReader.LINKTYPE_LINUX_SLL -> {
                need(d, 16, where);
                ip = 16;
                etherType = b.getShort(14) & 0xFFFF;
            }
            case PcapReader.LINKTYPE_LINUX_SLL2 -> {
                need(d, 20, where);
                ip = 20;
                etherType = b.getShort(0) & 0xFFFF;
            }
            case PcapReader.LINKTYPE_RAW, PcapReader.LINKTYPE_IPV4, PcapReader.LINKTYPE_IPV6 -> {
                need(d, 1, where);
                ip = 0;
                etherType = (d[0] & 0xF0) == 0x60 ? ETHERTYPE_IPV6 : ETHERTYPE_IPV4;
            }
            default -> throw new IOException(where + ": link type " + r.linkType()
                + ", neither Ethernet, Linux cooked nor raw IP");
        }
        byte[] src16 = new byte[16];
        byte[] dst16 = new byte[16];
        int ipId = 0;
        int flags = 0;
        int udp;
        if (etherType == ETHERTYPE_IPV4) {
            need(d, ip + 20, where);
            int ihl = (b.get(ip) & 0x0F) * 4;
            if ((b.get(ip) & 0xF0) != 0x40 || ihl < 20) {
                throw new IOException(where + ": not an IPv4 header (version/IHL byte 0x"
                    + Integer.toHexString(b.get(ip) & 0xFF) + ")");
            }
            if (b.get(ip + 9) != UDP_PROTOCOL) {
                throw new IOException(where + ": IPv4 protocol " + (b.get(ip + 9) & 0xFF) + ", not UDP");
            }
            ipId = b.getShort(ip + 4) & 0xFFFF;
            flags = b.getShort(ip + 6) & 0xFFFF;
            src16[10] = src16[11] = dst16[10] = dst16[11] = (byte) 0xFF;
            System.arraycopy(d, ip + 12, src16, 12, 4);
            System.arraycopy(d, ip + 16, dst16, 12, 4);
            udp = ip + ihl;
        } else if (etherType == ETHERTYPE_IPV6) {
            need(d, ip + 40, where);
            if (b.get(ip + 6) != UDP_PROTOCOL) {
                throw new IOException(where + ": IPv6 next header " + (b.get(ip + 6) & 0xFF) + ", not UDP");
            }
            System.arraycopy(d, ip + 8, src16, 0, 16);
            System.arraycopy(d, ip + 24, dst16, 0, 16);
            udp = ip + 40;
        } else {
            throw new IOException(where + ": ethertype 0x" + Integer.toHexString(etherType) + ", neither IPv4 nor IPv6");
        }
        need(d, udp + UDP_HEADER, where);
        int udpLength = b.getShort(udp + 4) & 0xFFFF;
        int roceLength = udpLength - UDP_HEADER - IcrcCalculator.ICRC_LENGTH;
        if (roceLength < IcrcCalculator.BTH_LENGTH) {
            throw new IOException(where + ": UDP length " + udpLength + " leaves no room for a BTH and an ICRC");
        }
        int end = udp + udpLength;
        need(d, end, where);
        if (d.length > end && (d.length > MIN_ETHERNET_FRAME || r.linkType() != PcapReader.LINKTYPE_ETHERNET)) {
            throw new IOException(where + ": " + (d.length - end) + " bytes after the UDP datagram");
        }
        int roceAt = udp + UDP_HEADER;
        byte[] roce = Arrays.copyOfRange(d, roceAt, roceAt + roceLength);
        int icrc = Integer.reverseBytes(b.getInt(roceAt + roceLength));
        return new RoceFrame(r.index(), etherType == ETHERTYPE_IPV6, src16, dst16, ipId, flags,
            b.getShort(udp) & 0xFFFF, b.getShort(udp + 2) & 0xFFFF, roce, icrc);
    }

    private static void need(byte[] d, int length, String where) throws IOException {
        if (d.length < length) {
            throw new IOException(where + ": truncated (" + d.length + " bytes, " + length + " needed)");
        }
    }

    /**
     * The BTH opcode.
     *
     * @return the opcode
     */
    public int opcode() {
        return roce[0] & 0xFF;
    }

    /**
     * The BTH destination QP.
     *
     * @return the 24-bit QP number
     */
    public int destQp() {
        return ByteBuffer.wrap(roce, 4, 4).getInt() & 0xFFFFFF;
    }

    /**
     * The BTH PSN.
     *
     * @return the 24-bit PSN
     */
    public int psn() {
        return ByteBuffer.wrap(roce, 8, 4).getInt() & 0xFFFFFF;
    }

    /**
     * The IPv4 source address as an int; meaningful when not {@link #ipv6()}.
     *
     * @return the address
     */
    public int srcIpv4() {
        return ByteBuffer.wrap(src16, 12, 4).getInt();
    }

    /**
     * The IPv4 destination address as an int; meaningful when not {@link #ipv6()}.
     *
     * @return the address
     */
    public int dstIpv4() {
        return ByteBuffer.wrap(dst16, 12, 4).getInt();
    }
}
