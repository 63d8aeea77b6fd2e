package io.jroce.stack.fault;

import java.util.function.LongSupplier;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.jroce.stack.transport.RocePacketHandler;
import io.jroce.stack.transport.RoceTransport;

/**
 * A {@link RoceTransport} that injects the faults of a {@link FaultPolicy} into the packets sent
 * through another one, such as the UDP transport: the same link conditions and scripted rules as
 * on the simulated fabric, against a real network stack. Each packet's fate goes into a
 * {@link PacketTrace}, and each fault is told to a {@link FaultListener}. Receiving is untouched
 * (the peer's decorator covers the other direction).
 *
 * <p>Two faults behave differently from the fabric, because the delegate owns the wire:
 * <ul>
 *   <li>A corrupted packet is not sent at all (traced CORRUPTED): the delegate appends the ICRC
 *       after this layer, so a flipped bit would carry a valid ICRC and be accepted; the real
 *       receiver drops a corrupted packet, so dropping it here is what its peer observes (except
 *       that the peer's drop_bad_icrc counter does not move).</li>
 *   <li>Delay, jitter and hold-back need a {@link DelayScheduler}; without one they are ignored
 *       and the packet is sent at once. With one, delayed packets keep their link's order
 *       ({@link LinkTails}) unless held back, as on the fabric.</li>
 * </ul>
 * I/O thread only, like the transport it wraps; the scheduler must run tasks on that thread.
 */
public final class FaultInjectingTransport implements RoceTransport {
    private final RoceTransport delegate;
    private final FaultPolicy policy;
    private final PacketTrace trace;
    private final LongSupplier clock;
    private final DelayScheduler scheduler;
    private final FaultListener listener;
    private final OutgoingPacket outgoing = new OutgoingPacket();
    private final Verdict verdict = new Verdict();
    private final LinkTails linkTails = new LinkTails();
    private long sequence;

    /**
     * Injects {@code policy}'s faults into what is sent through {@code delegate}.
     *
     * @param delegate  the transport that sends
     * @param policy    the faults
     * @param trace     where each packet's fate is recorded
     * @param clock     nanoseconds for rule time windows and the trace (System::nanoTime on UDP)
     * @param scheduler runs delayed sends on the I/O thread; null to ignore delays
     */
    public FaultInjectingTransport(RoceTransport delegate, FaultPolicy policy, PacketTrace trace, LongSupplier clock,
                                   DelayScheduler scheduler) {
        this(delegate, policy, trace, clock, scheduler, FaultListener.NONE);
    }

    /**
     * Injects {@code policy}'s faults into what is sent through {@code delegate}, and tells
     * {@code listener} each one (the sending device's event log).
     *
     * @param delegate  the transport that sends
     * @param policy    the faults
     * @param trace     where each packet's fate is recorded
     * @param clock     nanoseconds for rule time windows and the trace (System::nanoTime on UDP)
     * @param scheduler runs delayed sends on the I/O thread; null to ignore delays
     * @param listener  hears each fault injected, during the send
     */
    public FaultInjectingTransport(RoceTransport delegate, FaultPolicy policy, PacketTrace trace, LongSupplier clock,
                                   DelayScheduler scheduler, FaultListener listener) {
        this.delegate = delegate;
        this.policy = policy;
        this.trace = trace;
        this.clock = clock;
        this.scheduler = scheduler;
        this.listener = listener;
    }

    /**
     * The faults injected.
     *
     * @return the policy
     */
    public FaultPolicy policy() {
        return policy;
    }

    /**
     * Where the packets' fates are recorded.
     *
     * @return the trace
     */
    public PacketTrace trace() {
        return trace;
    }

    @Override
    public void start(RocePacketHandler handler) {
        delegate.start(handler);
    }

    @Override
    public boolean send(DirectBuffer packet, int offset, int length, byte[] srcAddr, byte[] dstAddr, int dstPort) {
        return send(packet, offset, length, srcAddr, dstAddr, dstPort, 0);
    }

    /** The listener hears {@code frame} with each fault; the delegate is given it with the packet. */
    @Override
    public boolean send(DirectBuffer packet, int offset, int length, byte[] srcAddr, byte[] dstAddr, int dstPort,
                        long frame) {
        byte[] srcAddress = srcAddr.clone(); // the trace keeps them; the caller may not
        byte[] dstAddress = dstAddr.clone();
        long now = clock.getAsLong();
        long id = sequence++;
        OutgoingPacket p = outgoing.wrap(now, srcAddress, dstAddress, packet, offset, length);
        int opcode = p.opcode();
        int psn = p.psn();
        int syndrome = p.aethSyndrome();
        Verdict v = policy.decide(p, verdict);
        v.report(listener, p, frame);
        Fate fate = v.fate();
        if (fate == Fate.DROPPED || fate == Fate.CORRUPTED) {
            trace.record(new TraceEvent(now, id, srcAddress, dstAddress, opcode, psn, length, syndrome, fate, -1,
                v.cause()));
            return true; // handed to the network, which lost it
        }
        long at = now;
        long copyAt = now;
        if (scheduler != null) {
            long due = now + v.delayNs();
            at = v.holdNs() > 0 ? linkTails.heldBack(srcAddress, dstAddress, due, v.holdNs())
                : linkTails.inOrder(srcAddress, dstAddress, due);
            copyAt = v.duplicate() ? linkTails.inOrder(srcAddress, dstAddress, now + v.copyDelayNs()) : now;
        }
        trace.record(new TraceEvent(now, id, srcAddress, dstAddress, opcode, psn, length, syndrome, fate, at, v.cause()));
        boolean sent = sendOrSchedule(packet, offset, length, srcAddress, dstAddress, dstPort, frame, at - now);
        if (v.duplicate()) {
            trace.record(new TraceEvent(now, id, srcAddress, dstAddress, opcode, psn, length, syndrome, Fate.DUPLICATED,
                copyAt, v.cause()));
            sendOrSchedule(packet, offset, length, srcAddress, dstAddress, dstPort, frame, copyAt - now);
        }
        return sent;
    }

    private boolean sendOrSchedule(DirectBuffer packet, int offset, int length, byte[] src, byte[] dst, int dstPort,
                                   long frame, long delayNs) {
        if (delayNs <= 0) {
            return delegate.send(packet, offset, length, src, dst, dstPort, frame);
        }
        // The caller reuses its buffer: keep a copy until the delayed send.
        byte[] copy = new byte[length];
        packet.getBytes(offset, copy);
        scheduler.schedule(delayNs, () -> {
            delegate.send(new UnsafeBuffer(copy), 0, length, src, dst, dstPort, frame);
            delegate.flush();
        });
        return true;
    }

    @Override
    public void joinGroup(byte[] group) {
        delegate.joinGroup(group);
    }

    @Override
    public void leaveGroup(byte[] group) {
        delegate.leaveGroup(group);
    }

    @Override
    public void flush() {
        delegate.flush();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
