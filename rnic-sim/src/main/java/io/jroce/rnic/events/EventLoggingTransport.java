package io.jroce.rnic.events;

import org.agrona.DirectBuffer;

import io.jroce.stack.transport.RocePacketHandler;
import io.jroce.stack.transport.RoceTransport;

/**
 * A device's transport with its {@link EventLog} on both sides: every packet the device sends is
 * logged before it goes down, with its frame number, every packet the network delivers before the
 * device sees it, with its sender's frame number when the network carried one (the simulated
 * fabric), and one whose ICRC failed before the transport drops it. The arrival lasts while the
 * device handles the packet, so that a drop it counts meanwhile names the packet. The device knows
 * nothing of the log; the packets are not touched.
 */
public final class EventLoggingTransport implements RoceTransport {
    private final RoceTransport transport;
    private final EventLog log;

    /**
     * Wraps {@code transport}.
     *
     * @param transport the device's transport
     * @param log where the packets are logged
     */
    public EventLoggingTransport(RoceTransport transport, EventLog log) {
        this.transport = transport;
        this.log = log;
    }

    @Override
    public void start(RocePacketHandler handler) {
        transport.start(new RocePacketHandler() {
            @Override
            public void onPacket(DirectBuffer packet, int offset, int length, byte[] src, int srcPort, byte[] dst) {
                onPacket(packet, offset, length, src, srcPort, dst, 0);
            }

            @Override
            public void onPacket(DirectBuffer packet, int offset, int length, byte[] src, int srcPort, byte[] dst,
                                 long frame) {
                log.packetReceived(packet, offset, length, src, srcPort, dst, frame);
                try {
                    handler.onPacket(packet, offset, length, src, srcPort, dst);
                } finally {
                    log.arrivalHandled();
                }
            }

            @Override
            public void onBadIcrc(DirectBuffer packet, int offset, int length, byte[] src, int srcPort, byte[] dst,
                                  long frame) {
                log.badIcrcReceived(packet, offset, length, src, srcPort, dst, frame);
            }
        });
    }

    /** The packet goes down with its frame number, for a network that carries it to the receiver. */
    @Override
    public boolean send(DirectBuffer packet, int offset, int length, byte[] srcAddress, byte[] dstAddress, int dstPort) {
        long frame = log.packetSent(packet, offset, length, srcAddress, dstAddress, dstPort);
        return transport.send(packet, offset, length, srcAddress, dstAddress, dstPort, frame);
    }

    @Override
    public void flush() {
        transport.flush();
    }

    @Override
    public void joinGroup(byte[] group) {
        transport.joinGroup(group);
    }

    @Override
    public void leaveGroup(byte[] group) {
        transport.leaveGroup(group);
    }

    @Override
    public void close() {
        transport.close();
    }
}
