package io.jroce.stack.udp;

import java.net.InetSocketAddress;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;

/**
 * The datagrams one socket has been given since its last flush, laid out back to back in one
 * pooled direct buffer, so that sending allocates no buffer per packet. Consecutive datagrams to
 * one destination form a run; a run leaves as one write: with UDP GSO (the UDP_SEGMENT socket
 * option, Linux 4.18+) as one message the kernel cuts into datagrams of the run's first size
 * (only the last may be shorter), without GSO as one datagram per packet. Netty sends what a flush
 * finds queued with sendmmsg, so either way a batch costs one system call. Event loop only.
 */
final class SendBatch {
    /** UDP_MAX_SEGMENTS in include/linux/udp.h (64 in Linux 4.18 to 6.1; larger later). */
    static final int MAX_GSO_SEGMENTS = 64;
    /** Bytes the buffer holds; a new one is taken when the next datagram may not fit. */
    private static final int BUFFER_SIZE = 256 * 1024;

    private final ByteBufAllocator allocator;
    /** Cleared for good when the kernel refuses a GSO message (see {@link #gsoRefused}). */
    private boolean gso;
    /** Largest UDP payload of one GSO message: 65535 minus the IP (IPv4 only) and UDP headers. */
    private final int maxRunBytes;
    private ByteBuf buffer;
    private InetSocketAddress recipient;
    private int runStart;
    private int runBytes;
    private int segmentSize;
    private int segments;
    /** A shorter datagram ended the run: GSO allows only the last segment to be short. */
    private boolean runClosed;

    SendBatch(ByteBufAllocator allocator, boolean ipv4, boolean gso) {
        this.allocator = allocator;
        this.gso = gso;
        this.maxRunBytes = 65535 - (ipv4 ? 20 : 0) - 8;
    }

    /**
     * Makes room for a datagram of {@code length} bytes to {@code to}, writing out the current
     * run first when the datagram cannot join it. Returns the datagram's index in its run: the
     * kernel gives the k-th segment of a GSO message the IPv4 ID k (inet_gso_segment counts up
     * from the message's ID, 0 with DF on an unconnected socket), which the ICRC must cover. The
     * caller writes the datagram at {@link #buffer()}'s writer index, then calls {@link #commit}.
     */
    int reserve(DatagramChannel channel, InetSocketAddress to, int length) {
        if (segments > 0 && !canJoin(to, length)) {
            writeRun(channel);
        }
        if (buffer == null || buffer.writableBytes() < length) {
            replaceBuffer(length);
        }
        return segments;
    }

    private boolean canJoin(InetSocketAddress to, int length) {
        return gso && !runClosed && segments < MAX_GSO_SEGMENTS && length <= segmentSize
            && runBytes + length <= maxRunBytes && buffer.writableBytes() >= length
            && (to == recipient || to.equals(recipient));
    }

    ByteBuf buffer() {
        return buffer;
    }

    /** Adds the datagram just written to the run. */
    void commit(InetSocketAddress to, int length) {
        if (segments == 0) {
            recipient = to;
            runStart = buffer.writerIndex() - length;
            segmentSize = length;
            runBytes = 0;
            runClosed = false;
        } else if (length < segmentSize) {
            runClosed = true;
        }
        runBytes += length;
        segments++;
    }

    /** Writes out the current run; the channel's flush sends it. */
    void writeRun(DatagramChannel channel) {
        if (segments == 0) {
            return;
        }
        ByteBuf slice = buffer.retainedSlice(runStart, runBytes);
        Object message = segments > 1
            ? new io.netty.channel.epoll.SegmentedDatagramPacket(slice, segmentSize, recipient)
            : new DatagramPacket(slice, recipient);
        segments = 0;
        recipient = null;
        channel.write(message, channel.voidPromise());
    }

    private void replaceBuffer(int length) {
        if (buffer != null) {
            buffer.release(); // the slices written out keep their memory alive until sent
        }
        buffer = allocator.directBuffer(Math.max(BUFFER_SIZE, length));
    }

    boolean gso() {
        return gso;
    }

    /**
     * The kernel refused a write with an error that GSO causes on some paths (EIO where the device
     * has no checksum offload, EINVAL): from now on every datagram is its own message. True when
     * GSO was on until now.
     */
    boolean gsoRefused(Throwable cause) {
        String m = String.valueOf(cause.getMessage());
        if (gso && (m.contains("Input/output error") || m.contains("Invalid argument"))) {
            gso = false;
            return true;
        }
        return false;
    }

    /** Releases the buffer; what was written out before stays with the channel. */
    void release() {
        if (buffer != null) {
            buffer.release();
            buffer = null;
        }
        segments = 0;
    }
}
