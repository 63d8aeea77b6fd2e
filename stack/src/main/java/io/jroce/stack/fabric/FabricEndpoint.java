package io.jroce.stack.fabric;


import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.jroce.stack.fault.FaultListener;
import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.stats.Counter;
import io.jroce.stack.stats.Counters;
import io.jroce.stack.transport.IpAddresses;
import io.jroce.stack.transport.RocePacketHandler;
import io.jroce.stack.transport.RoceTransport;

/**
 * One device's attachment to a {@link SimulatedFabric}. It appends the ICRC on send and checks it
 * exactly on receive (the fabric has no IP ID to hide), as the UDP transport does. The sender's
 * frame number travels with the datagram to the receiver's handler, and the faults the fabric
 * injects into what this endpoint sends are told to its {@link FaultListener}.
 */
public final class FabricEndpoint implements RoceTransport {
    private final SimulatedFabric fabric;
    private final byte[] address;
    private final int port;
    private final Counters counters;
    private final FaultListener faults;
    private final IcrcCalculator icrc = new IcrcCalculator();
    private RocePacketHandler handler;
    private boolean closed;

    FabricEndpoint(SimulatedFabric fabric, byte[] address, int port, Counters counters, FaultListener faults) {
        this.fabric = fabric;
        this.address = address;
        this.port = port;
        this.counters = counters;
        this.faults = faults;
    }

    /**
     * The fabric the endpoint is attached to.
     *
     * @return the fabric
     */
    public SimulatedFabric fabric() {
        return fabric;
    }

    @Override
    public void start(RocePacketHandler handler) {
        this.handler = handler;
    }

    @Override
    public boolean send(DirectBuffer packet, int offset, int length, byte[] srcAddress, byte[] dstAddress, int dstPort) {
        return send(packet, offset, length, srcAddress, dstAddress, dstPort, 0);
    }

    /** The fabric carries {@code frame} with the datagram to its receiver, and names it to the fault listener. */
    @Override
    public boolean send(DirectBuffer packet, int offset, int length, byte[] srcAddress, byte[] dstAddress, int dstPort,
                        long frame) {
        if (closed) {
            counters.increment(Counter.DROP_TX_FAILED);
            return false;
        }
        byte[] bytes = new byte[length + IcrcCalculator.ICRC_LENGTH];
        packet.getBytes(offset, bytes, 0, length);
        UnsafeBuffer b = new UnsafeBuffer(bytes);
        IcrcCalculator.writeIcrc(b, length, compute(srcAddress, port, dstAddress, dstPort, b, length));
        fabric.transmit(srcAddress.clone(), port, dstAddress.clone(), dstPort, bytes, frame, faults);
        return true;
    }

    void receive(FabricDatagram d) {
        if (closed || handler == null) {
            return;
        }
        UnsafeBuffer b = d.packet;
        int length = b.capacity() - IcrcCalculator.ICRC_LENGTH;
        if (length < IcrcCalculator.BTH_LENGTH) {
            counters.increment(Counter.DROP_TRUNCATED);
            return;
        }
        if (IcrcCalculator.readIcrc(b, length) != compute(d.src, d.srcPort, d.dst, d.dstPort, b, length)) {
            handler.onBadIcrc(b, 0, length, d.src, d.srcPort, d.dst, d.frame);
            counters.increment(Counter.DROP_BAD_ICRC);
            return;
        }
        handler.onPacket(b, 0, length, d.src, d.srcPort, d.dst, d.frame);
    }

    /**
     * Whether the fabric carries a datagram between these 16-byte addresses as IPv4 (both
     * IPv4-mapped) or IPv6: its ICRC is computed over that IP header, and its capture shows it.
     */
    static boolean ipv4(byte[] src, byte[] dst) {
        return IpAddresses.isIpv4Mapped(src) && IpAddresses.isIpv4Mapped(dst);
    }

    private int compute(byte[] src, int srcPort, byte[] dst, int dstPort, DirectBuffer b, int length) {
        if (ipv4(src, dst)) {
            return icrc.computeIpv4(IpAddresses.ipv4(src), IpAddresses.ipv4(dst), 0, IcrcCalculator.IPV4_FLAGS_DF,
                srcPort, dstPort, b, 0, length);
        }
        return icrc.computeIpv6(src, dst, srcPort, dstPort, b, 0, length);
    }

    /** The fabric delivers what is sent to {@code group} (IPv4-mapped or IPv6 multicast) here too. */
    @Override
    public void joinGroup(byte[] group) {
        if (!IpAddresses.isMulticast(group)) {
            throw new IllegalArgumentException("not a multicast address: " + IpAddresses.format(group));
        }
        fabric.join(group.clone(), port, this);
    }

    @Override
    public void leaveGroup(byte[] group) {
        fabric.leave(group, port, this);
    }

    @Override
    public void flush() {
        // Datagrams are queued on the fabric as they are sent.
    }

    @Override
    public void close() {
        closed = true;
        fabric.leaveAll(this);
    }
}
