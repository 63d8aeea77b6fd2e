package io.jroce.stack.fault;

import org.agrona.DirectBuffer;

import io.jroce.stack.transport.PolledTransport;
import io.jroce.stack.transport.RocePacketHandler;

/**
 * {@link FaultInjectingTransport} over a {@link PolledTransport}, for the invoker progress mode:
 * what is sent goes through the faults, while reading and waiting go straight to the sockets. The
 * delayed sends' scheduler must run them as the device's owner (the invoker runtime hands them to
 * the device as tasks).
 */
public final class FaultInjectingPolledTransport implements PolledTransport {
    private final FaultInjectingTransport faults;
    private final PolledTransport sockets;

    /**
     * Sends through {@code faults}, reads and waits on {@code sockets}.
     *
     * @param faults  the fault injector built over {@code sockets}
     * @param sockets the sockets
     */
    public FaultInjectingPolledTransport(FaultInjectingTransport faults, PolledTransport sockets) {
        this.faults = faults;
        this.sockets = sockets;
    }

    @Override
    public void start(RocePacketHandler handler) {
        faults.start(handler);
    }

    @Override
    public boolean send(DirectBuffer packet, int offset, int length, byte[] srcAddress, byte[] dstAddress, int dstPort) {
        return faults.send(packet, offset, length, srcAddress, dstAddress, dstPort);
    }

    @Override
    public boolean send(DirectBuffer packet, int offset, int length, byte[] srcAddress, byte[] dstAddress, int dstPort,
                        long frame) {
        return faults.send(packet, offset, length, srcAddress, dstAddress, dstPort, frame);
    }

    @Override
    public void flush() {
        faults.flush();
    }

    @Override
    public int receive(int maxDatagrams) {
        return sockets.receive(maxDatagrams);
    }

    @Override
    public void await(long timeoutNs, boolean watchSockets) {
        sockets.await(timeoutNs, watchSockets);
    }

    @Override
    public void wakeUp() {
        sockets.wakeUp();
    }

    @Override
    public void joinGroup(byte[] group) {
        faults.joinGroup(group);
    }

    @Override
    public void leaveGroup(byte[] group) {
        faults.leaveGroup(group);
    }

    @Override
    public void close() {
        faults.close();
    }
}
