package io.jroce.rnic.runtime;

import org.agrona.DirectBuffer;

import io.jroce.stack.transport.PolledTransport;
import io.jroce.stack.transport.RocePacketHandler;
import io.jroce.stack.transport.RoceTransport;

/**
 * What an invoker-mode device sees of its {@link PolledTransport}: sends go straight through (the
 * device calls them as the owner) except plain ACKs, held until the turn's flush so that they
 * leave after what the turn's thread posted ({@link AcknowledgementHold}); flushes are the owner's
 * turn's to make ({@link #flush}),
 * joining and leaving a multicast group (called by an application thread) run as the owner so
 * that they never race a round reading the sockets, and closing stops the fallback thread and
 * closes the sockets as the owner.
 */
public final class OwnedTransport implements RoceTransport {
    private final PolledTransport transport;
    private final InvokerIoContext io;

    /**
     * Wraps the transport of an invoker-mode device.
     *
     * @param transport the device's sockets
     * @param io the device's invoker context
     */
    public OwnedTransport(PolledTransport transport, InvokerIoContext io) {
        this.transport = transport;
        this.io = io;
    }

    @Override
    public void start(RocePacketHandler handler) {
        transport.start(handler);
    }

    /** Sends, or holds a plain ACK until the turn's flush ({@link AcknowledgementHold}). */
    @Override
    public boolean send(DirectBuffer packet, int offset, int length, byte[] srcAddress, byte[] dstAddress, int dstPort) {
        if (held(packet, offset, length, srcAddress, dstAddress, dstPort, 0, false)) {
            return true;
        }
        return transport.send(packet, offset, length, srcAddress, dstAddress, dstPort);
    }

    @Override
    public boolean send(DirectBuffer packet, int offset, int length, byte[] srcAddress, byte[] dstAddress, int dstPort,
                        long frame) {
        if (held(packet, offset, length, srcAddress, dstAddress, dstPort, frame, true)) {
            return true;
        }
        return transport.send(packet, offset, length, srcAddress, dstAddress, dstPort, frame);
    }

    /** Holds a plain ACK; before any other response, sends the ACKs held (a responder's PSN order). */
    private boolean held(DirectBuffer packet, int offset, int length, byte[] src, byte[] dst, int port, long frame,
                         boolean framed) {
        AcknowledgementHold hold = io.acknowledgementHold();
        if (AcknowledgementHold.isPlainAck(packet, offset, length)) {
            return hold.hold(packet, offset, src, dst, port, frame, framed);
        }
        if (hold.held() > 0 && AcknowledgementHold.isResponse(packet, offset)) {
            hold.release(transport);
        }
        return false;
    }

    /**
     * Nothing: the owner's turn decides when what the device sent leaves ({@link InvokerIoContext}
     * flushes at the end of each turn, or leaves it for the next call of a polling application
     * thread). An engine that flushed here would send each post, and each answer of a poll's
     * round, on its own system call.
     */
    @Override
    public void flush() {
    }

    @Override
    public void joinGroup(byte[] group) {
        io.call(() -> {
            transport.joinGroup(group);
            return null;
        });
    }

    @Override
    public void leaveGroup(byte[] group) {
        io.call(() -> {
            transport.leaveGroup(group);
            return null;
        });
    }

    @Override
    public void close() {
        io.close();
    }
}
