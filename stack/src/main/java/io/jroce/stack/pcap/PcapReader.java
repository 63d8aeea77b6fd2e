package io.jroce.stack.pcap;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a capture file: classic pcap (either byte order, microsecond or nanosecond timestamps, as
 * jroce's {@link PcapWriter} and tcpdump write it) or pcapng (what tshark and dumpcap write by
 * default: Enhanced, Simple and obsolete Packet Blocks, any number of interfaces and sections,
 * each interface's timestamp resolution). Not for hot paths: it loads every record into memory.
 * A file that is neither, or whose last record is cut short, fails with an {@link IOException}
 * that says which and where.
 */
public final class PcapReader {
    /** One captured frame. {@code data} starts at the link-layer header; {@code index} counts from 1. */
    public record Record(int index, long timestampNs, int originalLength, int linkType, byte[] data) {
    }

    /** The link type of Ethernet frames (LINKTYPE_ETHERNET). */
    public static final int LINKTYPE_ETHERNET = 1;
    /** The link type of raw IP packets (LINKTYPE_RAW). */
    public static final int LINKTYPE_RAW = 101;
    /** Linux "cooked" capture v1 (tcpdump -i any): a 16-byte pseudo header before the IP packet. */
    public static final int LINKTYPE_LINUX_SLL = 113;
    /** Linux "cooked" capture v2: a 20-byte pseudo header. */
    public static final int LINKTYPE_LINUX_SLL2 = 276;
    /** The link type of raw IPv4 packets (LINKTYPE_IPV4). */
    public static final int LINKTYPE_IPV4 = 228;
    /** The link type of raw IPv6 packets (LINKTYPE_IPV6). */
    public static final int LINKTYPE_IPV6 = 229;

    private static final int PCAP_HEADER = 24;
    private static final int PCAP_RECORD_HEADER = 16;
    private static final int PCAPNG_SECTION_HEADER = 0x0A0D0D0A;
    private static final int PCAPNG_BYTE_ORDER_MAGIC = 0x1A2B3C4D;
    private static final int PCAPNG_INTERFACE = 1;
    private static final int PCAPNG_OBSOLETE_PACKET = 2;
    private static final int PCAPNG_SIMPLE_PACKET = 3;
    private static final int PCAPNG_ENHANCED_PACKET = 6;
    private static final int PCAPNG_OPTION_TSRESOL = 9;

    private PcapReader() {
    }

    /**
     * Reads every frame of a capture.
     *
     * @param in a classic pcap file, read to its end
     * @return its frames, in order
     * @throws IOException the stream cannot be read or is not a classic pcap file
     */
    public static List<Record> read(InputStream in) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(in.readAllBytes());
        if (b.remaining() == 0) {
            throw new IOException("empty file: not a pcap or pcapng capture");
        }
        if (b.remaining() >= 4 && b.getInt(0) == PCAPNG_SECTION_HEADER) {
            return readPcapng(b);
        }
        if (b.remaining() < PCAP_HEADER) {
            throw new IOException("not a pcap or pcapng file: " + b.remaining() + " bytes, " + start(b));
        }
        return readPcap(b);
    }

    private static List<Record> readPcap(ByteBuffer b) throws IOException {
        int magic = b.getInt(0);
        boolean nanos;
        if (magic == 0xa1b2c3d4 || magic == 0xa1b23c4d) {
            b.order(ByteOrder.BIG_ENDIAN);
            nanos = magic == 0xa1b23c4d;
        } else if (magic == 0xd4c3b2a1 || magic == 0x4d3cb2a1) {
            b.order(ByteOrder.LITTLE_ENDIAN);
            nanos = magic == 0x4d3cb2a1;
        } else {
            throw new IOException("not a pcap or pcapng file: " + start(b));
        }
        int linkType = b.getInt(20) & 0x0FFF_FFFF; // the top bits may carry FCS flags
        b.position(PCAP_HEADER);
        List<Record> records = new ArrayList<>();
        while (b.hasRemaining()) {
            int number = records.size() + 1;
            if (b.remaining() < PCAP_RECORD_HEADER) {
                throw new IOException("truncated pcap record " + number + ": " + b.remaining()
                    + " bytes left, a record header needs " + PCAP_RECORD_HEADER);
            }
            long sec = Integer.toUnsignedLong(b.getInt());
            long frac = Integer.toUnsignedLong(b.getInt());
            int capLen = b.getInt();
            int origLen = b.getInt();
            if (capLen < 0 || capLen > b.remaining()) {
                throw new IOException("truncated pcap record " + number + ": " + b.remaining() + " bytes left of "
                    + Integer.toUnsignedString(capLen) + " captured");
            }
            byte[] data = new byte[capLen];
            b.get(data);
            long ns = sec * 1_000_000_000L + (nanos ? frac : frac * 1000);
            records.add(new Record(number, ns, origLen, linkType, data));
        }
        return records;
    }

    /** One pcapng interface: its link type and timestamp unit. */
    private record Interface(int linkType, int snapLength, boolean binary, int exponent) {
        long toNs(long ticks) {
            if (!binary && exponent <= 9) {
                long scale = 1;
                for (int i = exponent; i < 9; i++) {
                    scale *= 10;
                }
                return ticks * scale;
            }
            // Finer than nanoseconds, or a power of two: rounded to the nanosecond.
            return (long) (ticks / Math.pow(binary ? 2 : 10, exponent) * 1e9);
        }
    }

    private static List<Record> readPcapng(ByteBuffer b) throws IOException {
        List<Record> records = new ArrayList<>();
        List<Interface> interfaces = new ArrayList<>();
        int block = 0;
        while (b.position() < b.limit()) {
            int at = b.position();
            block++;
            if (b.remaining() < 12) {
                throw new IOException("truncated pcapng block " + block + " at byte " + at + ": " + b.remaining()
                    + " bytes left");
            }
            int type = b.getInt(at);
            if (type == PCAPNG_SECTION_HEADER) {
                int magic = b.order(ByteOrder.BIG_ENDIAN).getInt(at + 8);
                if (magic == Integer.reverseBytes(PCAPNG_BYTE_ORDER_MAGIC)) {
                    b.order(ByteOrder.LITTLE_ENDIAN);
                } else if (magic != PCAPNG_BYTE_ORDER_MAGIC) {
                    throw new IOException("not a pcapng file: byte-order magic 0x" + Integer.toHexString(magic)
                        + " in the section header at byte " + at);
                }
                interfaces.clear();
            }
            int length = b.getInt(at + 4);
            if (length < 12 || (length & 3) != 0 || length > b.remaining()) {
                throw new IOException("truncated pcapng block " + block + " at byte " + at + ": length "
                    + Integer.toUnsignedString(length) + ", " + b.remaining() + " bytes left");
            }
            int body = at + 8;
            int bodyLength = length - 12;
            switch (type) {
                case PCAPNG_INTERFACE -> interfaces.add(readInterface(b, body, bodyLength));
                case PCAPNG_ENHANCED_PACKET -> records.add(enhancedPacket(b, body, bodyLength, interfaces,
                    records.size() + 1, block));
                case PCAPNG_SIMPLE_PACKET -> records.add(simplePacket(b, body, bodyLength, interfaces,
                    records.size() + 1, block));
                case PCAPNG_OBSOLETE_PACKET -> records.add(obsoletePacket(b, body, bodyLength, interfaces,
                    records.size() + 1, block));
                default -> {
                    // name resolution, statistics, custom blocks...: nothing a frame needs
                }
            }
            b.position(at + length);
        }
        return records;
    }

    private static Interface readInterface(ByteBuffer b, int body, int bodyLength) throws IOException {
        if (bodyLength < 8) {
            throw new IOException("pcapng interface description block too short: " + bodyLength + " bytes");
        }
        int linkType = b.getShort(body) & 0xFFFF;
        int snap = b.getInt(body + 4);
        boolean binary = false;
        int exponent = 6; // microseconds unless if_tsresol says otherwise
        int o = body + 8;
        int end = body + bodyLength;
        while (o + 4 <= end) {
            int code = b.getShort(o) & 0xFFFF;
            int len = b.getShort(o + 2) & 0xFFFF;
            if (code == 0) {
                break;
            }
            if (code == PCAPNG_OPTION_TSRESOL && len >= 1 && o + 4 < end) {
                int v = b.get(o + 4) & 0xFF;
                binary = (v & 0x80) != 0;
                exponent = v & 0x7F;
            }
            o += 4 + ((len + 3) & ~3);
        }
        return new Interface(linkType, snap, binary, exponent);
    }

    private static Interface iface(List<Interface> interfaces, int id, int block) throws IOException {
        if (id < 0 || id >= interfaces.size()) {
            throw new IOException("pcapng block " + block + ": a packet of interface " + id + ", but "
                + interfaces.size() + " interfaces were described");
        }
        return interfaces.get(id);
    }

    private static Record enhancedPacket(ByteBuffer b, int body, int bodyLength, List<Interface> interfaces,
                                         int number, int block) throws IOException {
        if (bodyLength < 20) {
            throw new IOException("truncated pcapng enhanced packet block " + block);
        }
        Interface i = iface(interfaces, b.getInt(body), block);
        long ticks = (Integer.toUnsignedLong(b.getInt(body + 4)) << 32) | Integer.toUnsignedLong(b.getInt(body + 8));
        return packet(b, body + 20, bodyLength - 20, b.getInt(body + 12), b.getInt(body + 16), i.toNs(ticks),
            i.linkType(), number, block);
    }

    private static Record simplePacket(ByteBuffer b, int body, int bodyLength, List<Interface> interfaces,
                                       int number, int block) throws IOException {
        Interface i = iface(interfaces, 0, block);
        int original = b.getInt(body);
        int captured = i.snapLength() > 0 ? Math.min(original, i.snapLength()) : original;
        return packet(b, body + 4, bodyLength - 4, captured, original, 0, i.linkType(), number, block);
    }

    private static Record obsoletePacket(ByteBuffer b, int body, int bodyLength, List<Interface> interfaces,
                                         int number, int block) throws IOException {
        if (bodyLength < 20) {
            throw new IOException("truncated pcapng packet block " + block);
        }
        Interface i = iface(interfaces, b.getShort(body) & 0xFFFF, block);
        long ticks = (Integer.toUnsignedLong(b.getInt(body + 4)) << 32) | Integer.toUnsignedLong(b.getInt(body + 8));
        return packet(b, body + 20, bodyLength - 20, b.getInt(body + 12), b.getInt(body + 16), i.toNs(ticks),
            i.linkType(), number, block);
    }

    private static Record packet(ByteBuffer b, int data, int room, int captured, int original, long ns, int linkType,
                                 int number, int block) throws IOException {
        if (captured < 0 || captured > room) {
            throw new IOException("truncated pcapng block " + block + " (record " + number + "): "
                + Integer.toUnsignedString(captured) + " bytes captured, " + room + " in the block");
        }
        byte[] bytes = new byte[captured];
        b.get(data, bytes);
        return new Record(number, ns, original, linkType, bytes);
    }

    /** The first bytes of a file that is no capture, for the error message. */
    private static String start(ByteBuffer b) {
        StringBuilder sb = new StringBuilder("it starts with");
        for (int i = 0; i < Math.min(8, b.limit()); i++) {
            sb.append(String.format(" %02x", b.get(i)));
        }
        return sb.toString();
    }
}
