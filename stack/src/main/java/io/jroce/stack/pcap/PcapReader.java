package io.jroce.stack.pcap;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a classic pcap file (not pcapng) of either byte order, microsecond or nanosecond
 * timestamps. Not for hot paths: it loads every record into memory.
 */
public final class PcapReader {
    /** One captured frame. {@code data} starts at the link-layer header. */
    public record Record(int index, long timestampNs, int originalLength, int linkType, byte[] data) {
    }

    /** The link type of Ethernet frames (LINKTYPE_ETHERNET). */
    public static final int LINKTYPE_ETHERNET = 1;
    /** The link type of raw IP packets (LINKTYPE_RAW). */
    public static final int LINKTYPE_RAW = 101;

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
        if (b.remaining() < 24) {
            throw new IOException("not a pcap file: " + b.remaining() + " bytes");
        }
        int magic = b.getInt(0);
        boolean nanos;
        if (magic == 0xa1b2c3d4 || magic == 0xa1b23c4d) {
            b.order(ByteOrder.BIG_ENDIAN);
            nanos = magic == 0xa1b23c4d;
        } else if (magic == 0xd4c3b2a1 || magic == 0x4d3cb2a1) {
            b.order(ByteOrder.LITTLE_ENDIAN);
            nanos = magic == 0x4d3cb2a1;
        } else {
            throw new IOException("not a classic pcap file: magic 0x" + Integer.toHexString(magic));
        }
        int linkType = b.getInt(20);
        b.position(24);
        List<Record> records = new ArrayList<>();
        while (b.remaining() >= 16) {
            long sec = Integer.toUnsignedLong(b.getInt());
            long frac = Integer.toUnsignedLong(b.getInt());
            int capLen = b.getInt();
            int origLen = b.getInt();
            if (capLen < 0 || capLen > b.remaining()) {
                throw new IOException("truncated pcap record " + (records.size() + 1));
            }
            byte[] data = new byte[capLen];
            b.get(data);
            long ns = sec * 1_000_000_000L + (nanos ? frac : frac * 1000);
            records.add(new Record(records.size() + 1, ns, origLen, linkType, data));
        }
        return records;
    }
}
