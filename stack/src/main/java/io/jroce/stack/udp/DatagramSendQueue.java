package io.jroce.stack.udp;

import io.jroce.stack.stats.Counter;
import io.jroce.stack.stats.Counters;
import io.netty.channel.epoll.LinuxSocket;
import io.netty.channel.unix.Errors;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one socket of a {@link DirectUdpTransport} was given to send and has not sent yet: the
 * datagrams back to back in one preallocated direct buffer of the send queue's size, grouped into
 * messages. Consecutive datagrams to one destination form a run that leaves as one UDP GSO message
 * (UDP_SEGMENT, cut by the kernel into datagrams of the run's first size, only the last shorter;
 * the k-th segment gets IPv4 ID k, as {@link SendBatch} explains), without GSO each datagram is its
 * own message. {@link #flush} hands all messages to one sendmmsg(2) through {@link EpollInternals}
 * (nothing allocated), or a lone message to one sendto(2); what the kernel does not take (EAGAIN)
 * stays queued for the next flush. Without {@link EpollInternals}, one {@code Socket.sendToAddress}
 * per datagram, GSO off.
 *
 * <p><b>The segment size as a socket option.</b> A run's segment size goes with it as a control
 * message, unless the socket's UDP_SEGMENT option already has that size: when two flushes in a row
 * start with runs of one size (a ping-pong's answer and ACK, a stream of MTU-sized packets), the
 * option is set to it, and such runs leave without a control message, a lone one through sendto(2),
 * whose path through the kernel is about 0.1 us shorter on loopback than sendmmsg(2) with a control
 * message (docs/udp-transport.md). Under the option the kernel would cut any longer datagram at
 * that size: a datagram sent alone that is longer, or a run of another size, carries its own size
 * as the control message (the kernel cuts a datagram no longer than the segment size nowhere).
 * Under the option every datagram also meets the kernel's GSO checks, which some paths fail (an
 * IPsec route; a device without checksum offload before Linux 6.11; a path MTU below the segment
 * size before 6.14): the first EIO or EINVAL takes the option off for good and sends the lone
 * datagram again without it. Kernels where such a datagram could be lost without an error
 * ({@link #segmentOptionSafe}) never set it.
 * One thread at a time.
 */
final class DatagramSendQueue {
    private static final Logger LOG = LoggerFactory.getLogger(DatagramSendQueue.class);
    /** Messages queued at most: UIO_MAXIOV, the most one sendmmsg(2) takes. */
    static final int MAX_MESSAGES = 1024;
    /** Linux errno values (asm-generic/errno-base.h) with which a path may refuse UDP GSO. */
    private static final int EIO = 5;
    private static final int EINVAL = 22;
    /** setsockopt(SOL_UDP = 17, UDP_SEGMENT = 103): linux/udp.h, Linux 4.18. */
    private static final int SOL_UDP = 17;
    private static final int UDP_SEGMENT = 103;
    /** The major and minor number at the start of {@code os.version} ("6.18.44", "5.10.0-28-amd64"). */
    private static final Pattern KERNEL_VERSION = Pattern.compile("^(\\d+)\\.(\\d+)");

    private final LinuxSocket socket;
    private final int fd;
    private final boolean ipv6;
    private final Counters counters;
    private final String name;
    private final UnsafeBuffer buffer;
    private final long bufferAddress;
    private final int capacity;
    private final int maxRunBytes;
    private boolean gso;

    /** Queued messages are [head, count); their bytes [offsets[head], tail). */
    private int head;
    private int count;
    private int tail;
    private final int[] offsets = new int[MAX_MESSAGES];
    private final int[] bytes = new int[MAX_MESSAGES];
    private final int[] segmentSizes = new int[MAX_MESSAGES];
    private final int[] segments = new int[MAX_MESSAGES];
    private final int[] ports = new int[MAX_MESSAGES];
    private final int[] scopeIds = new int[MAX_MESSAGES];
    private final byte[] destinations = new byte[MAX_MESSAGES * 16];
    /** Fallback only: the destinations as socket addresses. */
    private final InetSocketAddress[] recipients;
    /** A shorter datagram ended the last message's run: GSO allows only the last segment to be short. */
    private boolean runClosed;
    /** The datagram reserved last joins the last message. */
    private boolean joining;

    /** sendmmsg entries, their recipient address arrays and their iovecs; null without {@link EpollInternals}. */
    private final Object[] packets;
    private final byte[][] recipientAddresses;
    private final UnsafeBuffer iovecs;
    /** The destination of a message sent alone through sendto(2). */
    private final byte[] loneDestination = new byte[16];
    /** The socket's UDP_SEGMENT option now (0: not set): runs of this size need no control message. */
    private int segmentOption;
    /** The segment size of the last flush's first run (0: it had none). */
    private int lastRunSegmentSize;
    /**
     * Whether the option may be set: not without GSO or {@link EpollInternals#SEND_TO_AVAILABLE}, on
     * a kernel not {@link #segmentOptionSafe}, or once the kernel refused the option or a message under it.
     */
    private boolean segmentOptionUsable;

    DatagramSendQueue(LinuxSocket socket, boolean ipv6, boolean ipv4, int capacity, boolean gso, boolean nativeBatches,
                      Counters counters, String name) {
        this.socket = socket;
        this.fd = socket.intValue();
        this.ipv6 = ipv6;
        this.counters = counters;
        this.name = name;
        this.capacity = capacity;
        ByteBuffer memory = ByteBuffer.allocateDirect(capacity);
        this.buffer = new UnsafeBuffer(memory);
        this.bufferAddress = BufferUtil.address(memory);
        this.maxRunBytes = 65535 - (ipv4 ? 20 : 0) - 8;
        this.gso = gso && nativeBatches;
        this.segmentOptionUsable = this.gso && EpollInternals.SEND_TO_AVAILABLE
            && segmentOptionSafe(System.getProperty("os.version", ""));
        if (nativeBatches) {
            packets = EpollInternals.newPackets(MAX_MESSAGES);
            recipientAddresses = new byte[MAX_MESSAGES][];
            iovecs = new UnsafeBuffer(ByteBuffer.allocateDirect(DatagramReader.IOVEC_SIZE * MAX_MESSAGES));
            for (int i = 0; i < MAX_MESSAGES; i++) {
                recipientAddresses[i] = EpollInternals.recipientAddress(packets[i]);
                EpollInternals.iovecs(packets[i], iovecs.addressOffset() + (long) i * DatagramReader.IOVEC_SIZE, 1);
            }
            recipients = null;
        } else {
            packets = null;
            recipientAddresses = null;
            iovecs = null;
            recipients = new InetSocketAddress[MAX_MESSAGES];
        }
    }

    /** Whether runs leave as GSO messages (off for good once the kernel refused one). */
    boolean gso() {
        return gso;
    }

    /** The memory datagrams are written to, at the offset {@link #reserve} returned. */
    UnsafeBuffer buffer() {
        return buffer;
    }

    boolean isEmpty() {
        return head == count;
    }

    /** Empties the queue without sending (the socket is closing); returns the datagrams dropped. */
    int drop() {
        int dropped = 0;
        for (int m = head; m < count; m++) {
            dropped += segments[m];
        }
        head = 0;
        count = 0;
        tail = 0;
        runClosed = false;
        return dropped;
    }

    /**
     * Makes room for a datagram of {@code length} bytes to {@code dst16}:{@code port} (flushing
     * first if the queue is full). Returns the offset in {@link #buffer()} to write it at, or -1
     * when the kernel does not take what is queued and no room is left.
     *
     * @param recipient the destination as a socket address, for the fallback only (else null)
     */
    int reserve(byte[] dst16, int port, int scopeId, InetSocketAddress recipient, int length) {
        if (tail + length > capacity && !makeRoom(length)) {
            return -1;
        }
        joining = canJoin(dst16, port, length);
        if (!joining) {
            if (count == MAX_MESSAGES) {
                flush();
                compact();
                if (count == MAX_MESSAGES) {
                    return -1;
                }
            }
            int m = count;
            System.arraycopy(dst16, 0, destinations, m * 16, 16);
            ports[m] = port;
            scopeIds[m] = scopeId;
            if (recipients != null) {
                recipients[m] = recipient;
            }
        }
        return tail;
    }

    /**
     * The IPv4 ID the kernel gives the datagram just reserved: its index in its GSO message
     * (inet_gso_segment counts up from the message's ID, 0 with DF on an unconnected socket).
     */
    int ipv4Id() {
        return joining ? segments[count - 1] : 0;
    }

    /** Adds the datagram written at the reserved offset. */
    void commit(int length) {
        if (joining) {
            int m = count - 1;
            bytes[m] += length;
            segments[m]++;
            if (length < segmentSizes[m]) {
                runClosed = true;
            }
        } else {
            int m = count++;
            offsets[m] = tail;
            bytes[m] = length;
            segmentSizes[m] = length;
            segments[m] = 1;
            runClosed = false;
        }
        tail += length;
    }

    private boolean canJoin(byte[] dst16, int port, int length) {
        int m = count - 1;
        return gso && count > head && !runClosed && segments[m] < SendBatch.MAX_GSO_SEGMENTS
            && length <= segmentSizes[m] && bytes[m] + length <= maxRunBytes && ports[m] == port
            && Arrays.equals(destinations, m * 16, m * 16 + 16, dst16, 0, 16);
    }

    private boolean makeRoom(int length) {
        compact();
        if (tail + length <= capacity) {
            return true;
        }
        flush();
        compact();
        return tail + length <= capacity;
    }

    /** Moves what is queued to the start of the buffer and of the message arrays. */
    private void compact() {
        if (head == 0) {
            return;
        }
        int n = count - head;
        int from = n == 0 ? tail : offsets[head];
        if (n > 0) {
            buffer.putBytes(0, buffer, from, tail - from);
            for (int i = head; i < count; i++) {
                offsets[i] -= from;
            }
            System.arraycopy(offsets, head, offsets, 0, n);
            System.arraycopy(bytes, head, bytes, 0, n);
            System.arraycopy(segmentSizes, head, segmentSizes, 0, n);
            System.arraycopy(segments, head, segments, 0, n);
            System.arraycopy(ports, head, ports, 0, n);
            System.arraycopy(scopeIds, head, scopeIds, 0, n);
            System.arraycopy(destinations, head * 16, destinations, 0, n * 16);
            if (recipients != null) {
                System.arraycopy(recipients, head, recipients, 0, n);
            }
        }
        tail -= from;
        head = 0;
        count = n;
    }

    /**
     * Sends what is queued, as far as the kernel takes it; a message it refuses for another reason
     * than a full buffer is dropped and its datagrams counted ({@link Counter#DROP_TX_FAILED}).
     *
     * @return true when nothing is left queued
     */
    boolean flush() {
        if (packets != null) {
            flushNative();
        } else {
            flushOneByOne();
        }
        if (head == count) {
            head = 0;
            count = 0;
            tail = 0;
            runClosed = false;
            return true;
        }
        return false;
    }

    private void flushNative() {
        followRuns();
        while (head < count) {
            int n = count - head;
            if (n == 1 && EpollInternals.SEND_TO_AVAILABLE && segmentControl(head) == 0) {
                if (!sendAlone(head)) {
                    return; // the socket's buffer is full: it waits for the next flush
                }
                continue;
            }
            for (int j = 0; j < n; j++) {
                int m = head + j;
                Object p = packets[j];
                iovecs.putLong(j * DatagramReader.IOVEC_SIZE, bufferAddress + offsets[m]);
                iovecs.putLong(j * DatagramReader.IOVEC_SIZE + 8, bytes[m]);
                System.arraycopy(destinations, m * 16, recipientAddresses[j], 0, 16);
                EpollInternals.recipient(p, scopeIds[m], ports[m], segmentControl(m));
            }
            int sent = EpollInternals.sendmmsg(fd, ipv6, packets, 0, n);
            if (sent > 0) {
                head += sent;
            } else if (sent == Errors.ERRNO_EAGAIN_NEGATIVE || sent == Errors.ERRNO_EWOULDBLOCK_NEGATIVE) {
                return; // the socket's buffer is full: the rest waits for the next flush
            } else {
                refused(-sent);
            }
        }
    }

    /**
     * The UDP_SEGMENT control message message {@code m} needs under the socket's option: none (0)
     * for a run of the option's size or a datagram no longer than it (or when no option is set), else
     * the run's segment size, or a lone datagram's own length so that the option does not cut it.
     */
    private int segmentControl(int m) {
        if (segments[m] > 1) {
            return segmentSizes[m] == segmentOption ? 0 : segmentSizes[m];
        }
        return segmentOption == 0 || bytes[m] <= segmentOption ? 0 : bytes[m];
    }

    /**
     * Sets the socket's UDP_SEGMENT option to the segment size of the first queued run when the last
     * flush's first run had that size too: a pattern, not a one-off, costs the system call.
     */
    private void followRuns() {
        if (!gso || !segmentOptionUsable) {
            return;
        }
        int size = 0;
        for (int m = head; m < count; m++) {
            if (segments[m] > 1) {
                size = segmentSizes[m];
                break;
            }
        }
        if (size != 0 && size != segmentOption && size == lastRunSegmentSize) {
            setSegmentOption(size);
        }
        lastRunSegmentSize = size;
    }

    /**
     * Whether a kernel ({@code os.version}) always refuses, with an error, a datagram that its GSO
     * checks fail while the UDP_SEGMENT option is set: Linux 5.4 and later, except 6.11, whose
     * kernels before a stable fix (October 2024) send a datagram no longer than the segment size
     * from a device without checksum offload with a partial checksum, which its receiver drops.
     * Before 5.4 (and 5.2/5.3 without a stable fix of October 2019) such a datagram became a GSO
     * packet of one segment, which software segmentation dropped.
     */
    static boolean segmentOptionSafe(String osVersion) {
        Matcher v = KERNEL_VERSION.matcher(osVersion);
        if (!v.find()) {
            return false;
        }
        int major = Integer.parseInt(v.group(1));
        int minor = Integer.parseInt(v.group(2));
        return (major > 5 || major == 5 && minor >= 4) && !(major == 6 && minor == 11);
    }

    private void setSegmentOption(int size) {
        try {
            socket.setIntOpt(SOL_UDP, UDP_SEGMENT, size);
            segmentOption = size;
        } catch (IOException e) {
            segmentOptionUsable = false; // control messages only from now on; the socket kept its value
            LOG.debug("UDP_SEGMENT={} refused on {}: {}", size, name, e.toString());
        }
    }

    /** Sends message {@code m} alone through sendto(2); false when the socket's buffer is full (EAGAIN). */
    private boolean sendAlone(int m) {
        System.arraycopy(destinations, m * 16, loneDestination, 0, 16);
        int sent = EpollInternals.sendTo(fd, ipv6, bufferAddress, offsets[m], offsets[m] + bytes[m], loneDestination,
            scopeIds[m], ports[m]);
        if (sent >= 0) {
            head++;
        } else if (sent == Errors.ERRNO_EAGAIN_NEGATIVE || sent == Errors.ERRNO_EWOULDBLOCK_NEGATIVE) {
            return false;
        } else {
            refused(-sent);
        }
        return true;
    }

    /**
     * The kernel refused the message at {@link #head} with {@code errno}: drop it and count its
     * datagrams; or, for a lone datagram refused under the UDP_SEGMENT option, take the option off
     * for good and leave the datagram at the head, for the caller's loop to send again without it.
     */
    private void refused(int errno) {
        int m = head;
        boolean gsoRefusal = errno == EIO || errno == EINVAL;
        if (gsoRefusal && segmentOption != 0) {
            // Under the option every datagram meets the kernel's GSO checks, which this path fails.
            segmentOptionUsable = false;
            setSegmentOption(0);
            if (segments[m] == 1 && segmentOption == 0) {
                LOG.debug("a datagram on {} was refused under UDP_SEGMENT (errno {}): sent again without it", name,
                    errno);
                return;
            }
        }
        head++;
        counters.add(Counter.DROP_TX_FAILED, segments[m]);
        if (segments[m] > 1 && gso && gsoRefusal) {
            gso = false;
            LOG.warn("the kernel refused a UDP GSO message on {} (errno {}); sending one datagram per packet from now on",
                name, errno);
        } else {
            LOG.debug("send on {} failed: errno {}", name, errno);
        }
    }

    /** The socket's UDP_SEGMENT option now (0: not set); for tests. */
    int segmentOption() {
        return segmentOption;
    }

    private void flushOneByOne() {
        while (head < count) {
            int m = head;
            InetSocketAddress to = recipients[m];
            try {
                int sent = socket.sendToAddress(bufferAddress, offsets[m], offsets[m] + bytes[m], to.getAddress(),
                    to.getPort());
                if (sent == 0) {
                    return; // EAGAIN
                }
                head++;
            } catch (IOException e) {
                head++;
                counters.increment(Counter.DROP_TX_FAILED);
                LOG.debug("send on {} failed", name, e);
            }
        }
    }
}
