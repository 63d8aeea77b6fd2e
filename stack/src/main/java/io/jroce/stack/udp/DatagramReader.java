package io.jroce.stack.udp;

import io.netty.channel.epoll.LinuxSocket;
import io.netty.channel.unix.DatagramSocketAddress;
import io.netty.channel.unix.Errors;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Non-blocking reads of one socket of a {@link DirectUdpTransport} into preallocated slots, each
 * datagram handed to the {@link DatagramReceiver} in place. With {@link EpollInternals} a batch is
 * one recvmmsg(2) whose entries (iovec, sender address and port, length) are reused: nothing is
 * allocated per datagram. With UDP GRO on the socket, each read is one recvmsg(2) of a coalesced
 * run (a sender's GSO message arrives whole: one system call for its datagrams, where recvmmsg
 * costs two, Netty's getsockopt before it included), cut at the segment size the kernel reports.
 * Without {@link EpollInternals}, one {@code Socket.recvFromAddress} per datagram (which
 * allocates its sender address). One thread at a time.
 */
final class DatagramReader {
    /** sizeof(struct iovec) on LP64: a pointer and a size_t. */
    static final int IOVEC_SIZE = 16;
    /** Read buffer with UDP_GRO: the largest coalesced run (64 KiB) fits whole. */
    static final int GRO_READ_SIZE = 65536;

    private final LinuxSocket socket;
    private final int fd;
    private final boolean ipv6;
    /** Bytes per datagram slot: one more than the largest taken, so a longer one is seen to be longer. */
    private final int slot;
    private final int batch;
    /** The slots, back to back; NIO-backed so that the ICRC's CRC32 reads it directly. */
    private final UnsafeBuffer slots;
    private final long slotsAddress;
    /** recvmmsg entries and their (final) sender address arrays; null without {@link EpollInternals}. */
    private final Object[] packets;
    private final byte[][] senderAddresses;
    /** The entries' iovecs: held for as long as the entries point into them. */
    private final UnsafeBuffer iovecMemory;
    private final byte[] src16 = new byte[16];
    /** Fallback only: the sender addresses it allocates, mapped to their 16-byte form. */
    private final SourceAddressCache sources;
    /** Reads are recvmsg(2) of GRO runs into one buffer of {@link #GRO_READ_SIZE}. */
    private final boolean gro;
    /**
     * GRO reads: the last read found the socket empty. The next read that finds a run hands it
     * over at once, without looking for more: the caller polling for an answer gets it one system
     * call sooner; the following reads go on until the socket is empty again.
     */
    private boolean idle = true;

    /**
     * @param gro the socket has UDP_GRO on (only with {@code nativeBatches}): read runs, not batches
     */
    DatagramReader(LinuxSocket socket, boolean ipv6, int maxDatagramSize, int batch, boolean nativeBatches,
                   boolean gro) {
        this.socket = socket;
        this.fd = socket.intValue();
        this.ipv6 = ipv6;
        this.gro = gro && nativeBatches;
        this.slot = this.gro ? GRO_READ_SIZE : maxDatagramSize + 1;
        this.batch = nativeBatches && !this.gro ? batch : 1;
        ByteBuffer memory = ByteBuffer.allocateDirect(slot * this.batch);
        this.slots = new UnsafeBuffer(memory);
        this.slotsAddress = BufferUtil.address(memory);
        if (nativeBatches) {
            UnsafeBuffer iovecs = new UnsafeBuffer(ByteBuffer.allocateDirect(IOVEC_SIZE * batch));
            long iovecsAddress = iovecs.addressOffset();
            packets = EpollInternals.newPackets(batch);
            senderAddresses = new byte[batch][];
            for (int i = 0; i < batch; i++) {
                iovecs.putLong(i * IOVEC_SIZE, slotsAddress + (long) i * slot);
                iovecs.putLong(i * IOVEC_SIZE + 8, slot);
                EpollInternals.iovecs(packets[i], iovecsAddress + (long) i * IOVEC_SIZE, 1);
                senderAddresses[i] = EpollInternals.senderAddress(packets[i]);
            }
            // The entries point into this memory: keep it reachable as long as they are.
            this.iovecMemory = iovecs;
            this.sources = null;
        } else {
            packets = null;
            senderAddresses = null;
            this.iovecMemory = null;
            this.sources = new SourceAddressCache();
        }
    }

    /**
     * Reads up to {@code max} ready datagrams and hands each to {@code receiver} as arriving on
     * {@code local}; a handler that throws is counted and reading goes on.
     *
     * @return the datagrams read: fewer than {@code max} when the socket had no more
     * @throws IOException the socket failed (not for "nothing to read")
     */
    int read(int max, LocalEndpoint local, DatagramReceiver receiver) throws IOException {
        if (gro) {
            return readRuns(max, local, receiver);
        }
        return packets != null ? readBatches(max, local, receiver) : readOneByOne(max, local, receiver);
    }

    private int readRuns(int max, LocalEndpoint local, DatagramReceiver receiver) throws IOException {
        Object p = packets[0];
        int total = 0;
        while (total < max && socket.isOpen()) {
            EpollInternals.iovecCount(p, 1); // the last read left a byte count there
            int n = EpollInternals.recvmsg(fd, ipv6, p);
            if (n < 0) {
                if (n == Errors.ERRNO_EAGAIN_NEGATIVE || n == Errors.ERRNO_EWOULDBLOCK_NEGATIVE) {
                    idle = true;
                    return total;
                }
                throw Errors.newIOException("recvmsg", n);
            }
            senderOf(p, 0);
            int port = EpollInternals.senderPort(p);
            int segment = EpollInternals.segmentSize(p);
            if (segment <= 0 || segment >= n) {
                deliver(receiver, local, 0, n, port);
                total++;
            } else {
                // Every datagram of the run came from the same sender and port (GRO merges one flow).
                for (int offset = 0; offset < n; offset += segment) {
                    deliver(receiver, local, offset, Math.min(segment, n - offset), port);
                    total++;
                }
            }
            if (idle) {
                idle = false;
                return total;
            }
        }
        return total;
    }

    private int readBatches(int max, LocalEndpoint local, DatagramReceiver receiver) throws IOException {
        int total = 0;
        while (total < max) {
            if (!socket.isOpen()) {
                return total; // closed by the handler: its descriptor number may be another file's now
            }
            int want = Math.min(batch, max - total);
            for (int i = 0; i < want; i++) {
                EpollInternals.iovecCount(packets[i], 1); // the last read left a byte count there
            }
            int n = EpollInternals.recvmmsg(fd, ipv6, packets, 0, want);
            if (n < 0) {
                if (n == Errors.ERRNO_EAGAIN_NEGATIVE || n == Errors.ERRNO_EWOULDBLOCK_NEGATIVE) {
                    return total;
                }
                throw Errors.newIOException("recvmmsg", n);
            }
            for (int i = 0; i < n; i++) {
                Object p = packets[i];
                senderOf(p, i);
                deliver(receiver, local, i * slot, EpollInternals.receivedLength(p), EpollInternals.senderPort(p));
            }
            total += n;
            if (n < want) {
                return total;
            }
        }
        return total;
    }

    /** Copies entry {@code i}'s sender address, as the last read wrote it, into {@link #src16}. */
    private void senderOf(Object p, int i) {
        byte[] sender = senderAddresses[i];
        if (EpollInternals.senderAddressLength(p) == 4) {
            ipv4Mapped(sender);
        } else {
            System.arraycopy(sender, 0, src16, 0, 16);
        }
    }

    private int readOneByOne(int max, LocalEndpoint local, DatagramReceiver receiver) throws IOException {
        int total = 0;
        while (total < max && socket.isOpen()) {
            DatagramSocketAddress sender = socket.recvFromAddress(slotsAddress, 0, slot);
            if (sender == null) {
                return total;
            }
            System.arraycopy(sources.lookup(sender.getAddress()), 0, src16, 0, 16);
            deliver(receiver, local, 0, sender.receivedAmount(), sender.getPort());
            total++;
        }
        return total;
    }

    private void deliver(DatagramReceiver receiver, LocalEndpoint local, int offset, int length, int srcPort) {
        try {
            receiver.receive(local, slots, offset, length, src16, srcPort);
        } catch (Throwable t) {
            if (t instanceof VirtualMachineError e) {
                throw e;
            }
            receiver.internalError("receive failed on " + local + " (the packet handler threw?)", t);
        }
    }

    /** The sender's 16-byte form from the 4 IPv4 bytes the read wrote first. */
    private void ipv4Mapped(byte[] ipv4) {
        for (int i = 0; i < 10; i++) {
            src16[i] = 0;
        }
        src16[10] = (byte) 0xFF;
        src16[11] = (byte) 0xFF;
        System.arraycopy(ipv4, 0, src16, 12, 4);
    }
}
