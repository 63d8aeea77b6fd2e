package io.jroce.stack.udp;

import io.jroce.stack.transport.IpAddresses;
import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.icrc.Ipv4IdRecovery;
import io.jroce.stack.pcap.PcapWriter;
import io.jroce.stack.stats.Counter;
import io.jroce.stack.stats.Counters;
import io.jroce.stack.transport.RocePacketHandler;
import io.netty.buffer.ByteBuf;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receive path of a {@link UdpTransport} (on its event loop) and of a {@link DirectUdpTransport}
 * (on the thread that receives): checks the length, verifies the
 * ICRC against the IP/UDP header the datagram arrived with, and hands the packet without its
 * ICRC to the RNIC. Every rejected datagram is counted; nothing here throws. With a capture, each
 * datagram long enough to hold a BTH and ICRC is written to it, with the IP ID its ICRC verified
 * with (ID 0 with DF when none did).
 */
final class DatagramReceiver {
    private static final Logger LOG = LoggerFactory.getLogger(DatagramReceiver.class);
    static final int MIN_DATAGRAM = IcrcCalculator.BTH_LENGTH + IcrcCalculator.ICRC_LENGTH;

    private final Counters counters;
    /** Capture, or null. */
    private final PcapWriter pcap;
    private final IcrcCalculator icrc = new IcrcCalculator();
    private final Ipv4IdRecovery idRecovery = new Ipv4IdRecovery();
    private final SourceAddressCache sources = new SourceAddressCache();
    /** A datagram Netty read (packet and ICRC). */
    private final UnsafeBuffer datagramView = new UnsafeBuffer();
    /** The packet handed to the handler (without the ICRC). */
    private final UnsafeBuffer view = new UnsafeBuffer();
    private final DirectWindow window = new DirectWindow();
    private final byte[] srcScratch = new byte[16];
    private final byte[] dstScratch = new byte[16];
    private final AtomicLong ipv4IdRecoveries = new AtomicLong();
    private final int maxDatagramSize;
    private byte[] copyScratch;
    private RocePacketHandler handler;

    DatagramReceiver(Counters counters, PcapWriter pcap, int maxDatagramSize) {
        this.counters = counters;
        this.pcap = pcap;
        this.maxDatagramSize = maxDatagramSize;
    }

    void handler(RocePacketHandler handler) {
        this.handler = handler;
    }

    long ipv4IdRecoveries() {
        return ipv4IdRecoveries.get();
    }

    /** Counts and logs an exception caught on the receiving thread that is not a socket error. */
    void internalError(String what, Throwable cause) {
        counters.increment(Counter.DROP_INTERNAL_ERROR);
        LOG.debug("{}", what, cause);
    }

    /**
     * Handles one datagram Netty read; the caller releases it and catches what the RNIC's handler
     * throws.
     */
    void receive(LocalEndpoint local, DatagramPacket datagram) {
        ByteBuf content = datagram.content();
        int length = content.readableBytes();
        if (!acceptableLength(length)) {
            return;
        }
        InetSocketAddress sender = datagram.sender();
        if (sender == null) {
            internalError("datagram without sender on " + local, null);
            return;
        }
        wrap(content, content.readerIndex(), length);
        check(local, datagramView, 0, length, sources.lookup(sender.getAddress()), sender.getPort());
    }

    /**
     * Handles one datagram read into {@code buffer} at {@code offset} (packet and ICRC,
     * {@code length} bytes) from {@code src16} (16 bytes, IPv4-mapped for IPv4):{@code srcPort};
     * the caller catches what the RNIC's handler throws. Allocates nothing.
     */
    void receive(LocalEndpoint local, DirectBuffer buffer, int offset, int length, byte[] src16, int srcPort) {
        if (acceptableLength(length)) {
            check(local, buffer, offset, length, src16, srcPort);
        }
    }

    /** False, counted, for a datagram too short to hold a BTH and ICRC or longer than the largest taken. */
    private boolean acceptableLength(int length) {
        if (length < MIN_DATAGRAM) {
            counters.increment(Counter.DROP_TRUNCATED);
            return false;
        }
        if (length > maxDatagramSize) {
            // Longer than any packet of the largest MTU: it filled its read slot (and may have been
            // cut there, where its first bytes could pass for a whole packet), or came whole
            // through GRO's larger buffer. Either way it is no RoCE packet of this device.
            counters.increment(Counter.DROP_OVERSIZED);
            return false;
        }
        return true;
    }

    /** Verifies the ICRC of a datagram of an acceptable length and hands the packet to the handler. */
    private void check(LocalEndpoint local, DirectBuffer buffer, int offset, int length, byte[] src16, int srcPort) {
        RocePacketHandler h = handler;
        if (h == null) {
            internalError("datagram before start() on " + local, null);
            return;
        }
        int roceLength = length - IcrcCalculator.ICRC_LENGTH;
        int received = buffer.getInt(offset + roceLength, ByteOrder.LITTLE_ENDIAN);
        view.wrap(buffer, offset, roceLength);

        if (local.ipv4) {
            if (!IpAddresses.isIpv4Mapped(src16)) {
                counters.increment(Counter.DROP_WRONG_ADDRESS);
                return;
            }
            int srcIpv4 = IpAddresses.ipv4(src16);
            int computed = icrc.computeIpv4(srcIpv4, local.ipv4Int, 0, IcrcCalculator.IPV4_FLAGS_DF,
                srcPort, local.port, view, 0, roceLength);
            int ipId = 0;
            int flags = IcrcCalculator.IPV4_FLAGS_DF;
            if (computed != received) {
                ipId = idRecovery.recoverId(computed ^ received, roceLength);
                if (ipId != Ipv4IdRecovery.NOT_FOUND) {
                    flags = idRecovery.lastFlagsFragment();
                    ipv4IdRecoveries.incrementAndGet();
                }
            }
            if (pcap != null) {
                pcap.ipv4(srcIpv4, local.ipv4Int, ipId == Ipv4IdRecovery.NOT_FOUND ? 0 : ipId, flags, srcPort, local.port, view, 0, roceLength,
                    received);
            }
            if (ipId == Ipv4IdRecovery.NOT_FOUND) {
                h.onBadIcrc(view, 0, roceLength, src16, srcPort, local.address16, 0);
                counters.increment(Counter.DROP_BAD_ICRC);
                return;
            }
        } else {
            boolean valid = icrc.computeIpv6(src16, local.address16, srcPort, local.port, view, 0, roceLength) == received;
            if (pcap != null) {
                pcap.ipv6(src16, local.address16, srcPort, local.port, view, 0, roceLength, received);
            }
            if (!valid) {
                h.onBadIcrc(view, 0, roceLength, src16, srcPort, local.address16, 0);
                counters.increment(Counter.DROP_BAD_ICRC);
                return;
            }
        }

        System.arraycopy(src16, 0, srcScratch, 0, 16);
        System.arraycopy(local.address16, 0, dstScratch, 0, 16);
        h.onPacket(view, 0, roceLength, srcScratch, srcPort, dstScratch);
    }

    /** Points {@link #datagramView} at the datagram's bytes without copying or allocating when they are direct. */
    private void wrap(ByteBuf content, int start, int length) {
        if (window.wrap(content, start, length, datagramView)) {
            return;
        }
        byte[] copy = copyScratch;
        if (copy == null || copy.length < length) {
            copyScratch = copy = new byte[Math.max(length, 2048)];
        }
        content.getBytes(start, copy, 0, length);
        datagramView.wrap(copy, 0, length);
    }
}
