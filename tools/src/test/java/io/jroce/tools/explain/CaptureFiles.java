package io.jroce.tools.explain;

import io.jroce.stack.pcap.PcapReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites a capture in the other formats explain reads, frame for frame: pcapng (as tshark and
 * dumpcap write it), and classic pcap with a Linux cooked (SLL) or raw IP link layer (as tcpdump
 * {@code -i any} and some tools write it).
 */
final class CaptureFiles {
    private CaptureFiles() {
    }

    static List<PcapReader.Record> records(Path capture) throws IOException {
        try (InputStream in = Files.newInputStream(capture)) {
            return PcapReader.read(in);
        }
    }

    /** A pcapng file, big-endian, one interface with nanosecond timestamps, one Enhanced Packet Block per frame. */
    static void pcapng(List<PcapReader.Record> records, Path out) throws IOException {
        List<byte[]> blocks = new ArrayList<>();
        ByteBuffer shb = block(0x0A0D0D0A, 16);
        shb.putInt(0x1A2B3C4D).putShort((short) 1).putShort((short) 0).putLong(-1);
        blocks.add(finish(shb));
        ByteBuffer idb = block(1, 8 + 8 + 4);
        idb.putShort((short) records.get(0).linkType()).putShort((short) 0).putInt(0);
        idb.putShort((short) 9).putShort((short) 1).put((byte) 9).put(new byte[3]); // if_tsresol: 10^-9
        idb.putInt(0); // opt_endofopt
        blocks.add(finish(idb));
        for (PcapReader.Record r : records) {
            int padded = (r.data().length + 3) & ~3;
            ByteBuffer epb = block(6, 20 + padded);
            epb.putInt(0).putInt((int) (r.timestampNs() >>> 32)).putInt((int) r.timestampNs())
                .putInt(r.data().length).putInt(r.originalLength()).put(r.data()).put(new byte[padded - r.data().length]);
            blocks.add(finish(epb));
        }
        write(blocks, out);
    }

    /** A classic pcap whose Ethernet headers are replaced by {@code linkType}'s: SLL (113) or raw IP (101). */
    static void relinked(List<PcapReader.Record> records, int linkType, Path out) throws IOException {
        List<byte[]> parts = new ArrayList<>();
        parts.add(ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN).putInt(0xa1b23c4d).putShort((short) 2)
            .putShort((short) 4).putInt(0).putInt(0).putInt(262144).putInt(linkType).array());
        for (PcapReader.Record r : records) {
            byte[] ip = java.util.Arrays.copyOfRange(r.data(), 14, r.data().length);
            byte[] frame = switch (linkType) {
                case PcapReader.LINKTYPE_LINUX_SLL -> {
                    ByteBuffer sll = ByteBuffer.allocate(16 + ip.length);
                    sll.putShort((short) 0).putShort((short) 1).putShort((short) 6).put(r.data(), 6, 6).putShort((short) 0)
                        .put(r.data(), 12, 2).put(ip);
                    yield sll.array();
                }
                case PcapReader.LINKTYPE_RAW -> ip;
                default -> throw new IllegalArgumentException("link type " + linkType);
            };
            parts.add(ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putInt((int) (r.timestampNs() / 1_000_000_000L))
                .putInt((int) (r.timestampNs() % 1_000_000_000L)).putInt(frame.length).putInt(frame.length).array());
            parts.add(frame);
        }
        write(parts, out);
    }

    private static ByteBuffer block(int type, int bodyLength) {
        ByteBuffer b = ByteBuffer.allocate(12 + bodyLength);
        b.putInt(type).putInt(12 + bodyLength);
        return b;
    }

    private static byte[] finish(ByteBuffer b) {
        b.putInt(b.capacity());
        return b.array();
    }

    private static void write(List<byte[]> parts, Path out) throws IOException {
        int total = parts.stream().mapToInt(p -> p.length).sum();
        ByteBuffer all = ByteBuffer.allocate(total);
        parts.forEach(all::put);
        Files.write(out, all.array());
    }
}
