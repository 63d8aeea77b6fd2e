package io.jroce.stack.pcap;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.LongSupplier;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes RoCEv2 packets to a classic pcap file (nanosecond timestamps, Ethernet link type) that
 * Wireshark and tshark open as RoCEv2: a Java socket sees only the UDP payload, so each packet is
 * wrapped in synthesised Ethernet, IP and UDP headers ({@link FrameSynthesizer}).
 *
 * <p>A frame's timestamp is the wall clock by default; a simulated fabric gives its virtual clock
 * instead ({@link #create(Path, LongSupplier)}), so that its capture is the same on every run.
 *
 * <p>Frames are assembled in one reusable direct buffer and written to the file when it fills and
 * on every {@link #flush()} (the UDP transport flushes after each batch of packets), so a capture
 * survives a killed process up to the last batch. Nothing is allocated per packet.
 *
 * <p>Not thread-safe: one thread (the transport's I/O thread) writes, flushes and closes. A
 * failure (a file write, or a frame that cannot be built) never reaches that thread: it is logged
 * once, later frames are dropped, and {@link #close()} throws it.
 */
public final class PcapWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PcapWriter.class);

    /** Magic of a classic pcap file with nanosecond timestamps. */
    static final int MAGIC_NANOS = 0xa1b23c4d;
    /** Frames longer than this are cut (never happens: a RoCE datagram is at most 64 KiB). */
    static final int SNAPLEN = 262_144;
    static final int FILE_HEADER = 24;
    static final int RECORD_HEADER = 16;
    static final int BUFFER_BYTES = 1 << 20;

    private final Path file;
    private final FileChannel channel;
    private final ByteBuffer bytes = ByteBuffer.allocateDirect(BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
    /** Nanoseconds since the Unix epoch, read once per frame. */
    private final LongSupplier clockNs;
    private int used;
    private long frames;
    private IOException failure;
    private boolean closed;

    private PcapWriter(Path file, FileChannel channel, LongSupplier clockNs) {
        this.file = file;
        this.channel = channel;
        this.clockNs = clockNs;
    }

    /**
     * Creates (or truncates) {@code file} and writes the pcap file header; frames are stamped with
     * the wall clock.
     *
     * @param file the capture file
     * @return the writer, the caller's to close
     * @throws IOException the file cannot be written
     */
    public static PcapWriter create(Path file) throws IOException {
        long epochNsAtStart = System.currentTimeMillis() * 1_000_000L;
        long nanoTimeAtStart = System.nanoTime();
        return create(file, () -> epochNsAtStart + (System.nanoTime() - nanoTimeAtStart));
    }

    /**
     * Creates (or truncates) {@code file} and writes the pcap file header; each frame is stamped
     * with what {@code clockNs} says when it is captured.
     *
     * @param file the capture file
     * @param clockNs nanoseconds since the Unix epoch (a virtual clock's 0 is then 1970-01-01), never negative
     * @return the writer, the caller's to close
     * @throws IOException the file cannot be written
     */
    public static PcapWriter create(Path file, LongSupplier clockNs) throws IOException {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING);
        PcapWriter writer = new PcapWriter(file, channel, clockNs);
        try {
            writer.writeFileHeader();
            writer.writeOut();
        } catch (IOException e) {
            channel.close();
            throw e;
        }
        return writer;
    }

    /**
     * The file the writer writes.
     *
     * @return the file
     */
    public Path file() {
        return file;
    }

    /**
     * Frames captured so far (dropped ones, after a failure, not counted); read it on the writing thread or after close.
     *
     * @return the number of frames
     */
    public long frames() {
        return frames;
    }

    /**
     * Captures a RoCE packet carried in IPv4.
     *
     * @param ipId              the IP identification the packet's ICRC was computed with
     * @param flagsFragment     the flags/fragment word, e.g. {@code 0x4000} (DF)
     * @param roce              the packet from its BTH, without the ICRC
     * @param lengthWithoutIcrc BTH, extension headers, payload and pad
     * @param icrc              the ICRC as an int (written little-endian, as on the wire)
     * @param srcIpv4 the source address as an int
     * @param dstIpv4 the destination address as an int
     * @param srcPort the UDP source port
     * @param dstPort the UDP destination port
     * @param off where the packet starts in {@code roce}
     */
    public void ipv4(int srcIpv4, int dstIpv4, int ipId, int flagsFragment, int srcPort, int dstPort,
                     DirectBuffer roce, int off, int lengthWithoutIcrc, int icrc) {
        int at = reserve(FrameSynthesizer.ipv4FrameLength(lengthWithoutIcrc));
        if (at < 0) {
            return;
        }
        try {
            commit(at, FrameSynthesizer.ipv4(buffer, at + RECORD_HEADER, srcIpv4, dstIpv4, ipId, flagsFragment,
                srcPort, dstPort, roce, off, lengthWithoutIcrc, icrc));
        } catch (RuntimeException e) {
            fail(new IOException("cannot capture a packet of " + lengthWithoutIcrc + " bytes", e));
        }
    }

    /**
     * Captures a RoCE packet carried in IPv6; addresses are 16 bytes. See {@link #ipv4}.
     *
     * @param src16 the source address
     * @param dst16 the destination address
     * @param srcPort the UDP source port
     * @param dstPort the UDP destination port
     * @param roce the packet from its BTH, without the ICRC
     * @param off where the packet starts in {@code roce}
     * @param lengthWithoutIcrc BTH, extension headers, payload and pad
     * @param icrc the ICRC as an int
     */
    public void ipv6(byte[] src16, byte[] dst16, int srcPort, int dstPort,
                     DirectBuffer roce, int off, int lengthWithoutIcrc, int icrc) {
        int at = reserve(FrameSynthesizer.ipv6FrameLength(lengthWithoutIcrc));
        if (at < 0) {
            return;
        }
        try {
            commit(at, FrameSynthesizer.ipv6(buffer, at + RECORD_HEADER, src16, dst16, srcPort, dstPort,
                roce, off, lengthWithoutIcrc, icrc));
        } catch (RuntimeException e) {
            fail(new IOException("cannot capture a packet of " + lengthWithoutIcrc + " bytes", e));
        }
    }

    /** Writes the frames buffered so far to the file (no fsync). */
    public void flush() {
        if (used == 0 || failure != null || closed) {
            return;
        }
        try {
            writeOut();
        } catch (IOException e) {
            fail(e);
        }
    }

    /** Flushes and closes the file; throws the first write failure, if there was one. Idempotent. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        flush();
        closed = true;
        try {
            channel.close();
        } catch (IOException e) {
            if (failure == null) {
                failure = e;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Makes room for a record of {@code frameLength}; returns its offset, or -1 when the frame is dropped. */
    private int reserve(int frameLength) {
        if (failure != null || closed) {
            return -1;
        }
        if (RECORD_HEADER + frameLength > BUFFER_BYTES) {
            fail(new IOException("a frame of " + frameLength + " bytes does not fit the capture buffer"));
            return -1;
        }
        if (used + RECORD_HEADER + frameLength > BUFFER_BYTES) {
            flush();
            if (failure != null) {
                return -1;
            }
        }
        return used;
    }

    private void commit(int at, int frameLength) {
        long ns = clockNs.getAsLong();
        buffer.putInt(at, (int) (ns / 1_000_000_000L), ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(at + 4, (int) (ns % 1_000_000_000L), ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(at + 8, frameLength, ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(at + 12, frameLength, ByteOrder.LITTLE_ENDIAN);
        used = at + RECORD_HEADER + frameLength;
        frames++;
    }

    private void writeFileHeader() {
        buffer.putInt(0, MAGIC_NANOS, ByteOrder.LITTLE_ENDIAN);
        buffer.putShort(4, (short) 2, ByteOrder.LITTLE_ENDIAN);
        buffer.putShort(6, (short) 4, ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(8, 0, ByteOrder.LITTLE_ENDIAN); // thiszone: timestamps are UTC
        buffer.putInt(12, 0, ByteOrder.LITTLE_ENDIAN); // sigfigs
        buffer.putInt(16, SNAPLEN, ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(20, PcapReader.LINKTYPE_ETHERNET, ByteOrder.LITTLE_ENDIAN);
        used = FILE_HEADER;
    }

    private void writeOut() throws IOException {
        bytes.limit(used).position(0);
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
        bytes.clear();
        used = 0;
    }

    private void fail(IOException e) {
        failure = e;
        used = 0;
        bytes.clear();
        LOG.warn("capture to {} stopped: {}", file, e.toString());
    }

    @Override
    public String toString() {
        return "pcap " + file + " (" + frames + " frames)";
    }
}
