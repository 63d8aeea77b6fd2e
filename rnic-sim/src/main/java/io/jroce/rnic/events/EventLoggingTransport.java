package io.jroce.rnic.events;

import org.agrona.DirectBuffer;

import io.jroce.stack.transport.RocePacketHandler;
import io.jroce.stack.transport.RoceTransport;

/**
 * A device's transport with its {@link EventLog} on both sides: every packet the device sends is
 * logged before it goes down, every packet the network delivers before the device sees it. The
 * device knows nothing of the log; the packets are not touched.
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
        transport.start((packet, offset, length, src, srcPort, dst) -> {
            log.packetReceived(packet, offset, length, src, srcPort, dst);
            handler.onPacket(packet, offset, length, src, srcPort, dst);
        });
    }

    @Override
    public boolean send(DirectBuffer packet, int offset, int length, byte[] srcAddress, byte[] dstAddress, int dstPort) {
        log.packetSent(packet, offset, length, srcAddress, dstAddress, dstPort);
        return transport.send(packet, offset, length, srcAddress, dstAddress, dstPort);
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
