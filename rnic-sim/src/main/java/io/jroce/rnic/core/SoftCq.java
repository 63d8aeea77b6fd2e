package io.jroce.rnic.core;

import java.util.concurrent.TimeUnit;

import io.jroce.rnic.cq.CompletionArming;
import io.jroce.rnic.cq.CompletionRing;
import io.jroce.rnic.cq.CompletionWaiters;
import io.jroce.verbs.Arguments;
import io.jroce.verbs.AsyncEvent;
import io.jroce.verbs.AsyncEventType;
import io.jroce.verbs.CompletionChannel;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;

/**
 * A completion queue: the verbs face of a {@link CompletionRing} that the device's I/O thread
 * fills ({@link CompletionSink}) and any thread polls without a lock, with
 * {@link CompletionWaiters} for threads blocked in {@link #pollBlocking}. This class adds what
 * needs the device: overflow (CQ_ERR), the completion channel, the hint that an application waits,
 * and the CQ's lifecycle.
 *
 * <p>With a completion channel the CQ can be armed ({@link CompletionArming}, IBTA Vol. 1
 * 11.4.2.2): the next matching completion disarms it and queues one event on the channel, so an
 * armed CQ fires once and must be re-armed, and a completion already queued when it is armed does
 * not fire (poll after arming so as not to miss it).
 */
final class SoftCq implements CompletionQueue, CompletionSink {
    private final SoftDevice device;
    private final SoftCompletionChannel channel;
    private final CompletionRing ring;
    private final CompletionArming arming = new CompletionArming();
    private final CompletionWaiters waiters = new CompletionWaiters();
    private final ResourceUsers users = new ResourceUsers("completion queue is destroyed");
    private volatile boolean overflowed;
    /** Events taken from the channel for this CQ and not yet acknowledged. Guarded by the channel's lock. */
    int unackedEvents;
    /** Set when the CQ is destroyed, after which the channel drops its events. Guarded by the channel's lock. */
    boolean detachedFromChannel;
    private volatile boolean takesReceives;
    /** What its ring was charged to the device's {@link MemoryBudget}, refunded when it is destroyed. */
    final long footprint;

    /** A CQ of {@code entries} entries reporting events to {@code channel} (null for none). */
    SoftCq(SoftDevice device, int entries, SoftCompletionChannel channel) {
        if (entries < 1 || entries > DeviceLimits.MAX_CQE) {
            throw new InvalidAttributeException("CQ entries must be 1.." + DeviceLimits.MAX_CQE + ", got " + entries);
        }
        this.device = device;
        this.channel = channel;
        this.footprint = QueueFootprint.cq(entries);
        device.memory().charge(footprint, "a CQ of " + entries + " entries");
        try {
            this.ring = new CompletionRing(entries);
            if (channel != null) {
                channel.attach(); // last: nothing else to undo when the channel is already destroyed
            }
        } catch (RuntimeException e) {
            device.memory().refund(footprint);
            throw e;
        }
    }

    SoftDevice device() {
        return device;
    }

    @Override
    public int capacity() {
        return ring.capacity();
    }

    /** I/O thread only: the ring has a single producer. A full CQ raises CQ_ERR once (IBTA 11.6.3). */
    @Override
    public WorkCompletion claim() {
        WorkCompletion wc = ring.claim();
        if (wc == null && !overflowed) {
            overflowed = true; // CQ_ERR once per CQ (IBTA 11.6.3)
            device.raiseAsyncEvent(new AsyncEvent(AsyncEventType.CQ_ERR, this, 0));
        }
        return wc;
    }

    /** A completion that matches what the CQ is armed for fires its channel. */
    @Override
    public void publish(boolean solicited) {
        WorkCompletion wc = ring.claimed();
        boolean successful = wc.status() == WcStatus.SUCCESS;
        device.events().completionGenerated(wc); // before a poller may copy it out
        ring.publish();
        waiters.published();
        if (arming.fire(solicited, successful)) {
            channel.post(this); // application code may run here and poll this CQ
        }
    }

    @Override
    public void requestNotification(boolean solicitedOnly) {
        ensureOpen();
        if (channel == null) {
            throw new InvalidStateException("this completion queue has no completion channel; create it with "
                + "createCq(entries, channel) to request notifications");
        }
        arming.arm(solicitedOnly);
    }

    @Override
    public void ackEvents(int count) {
        ensureOpen();
        if (channel == null) {
            throw new InvalidStateException(
                "this completion queue has no completion channel, so no events to acknowledge");
        }
        if (count < 0) {
            throw new InvalidAttributeException("cannot acknowledge a negative number of events: " + count);
        }
        channel.acknowledge(this, count);
    }

    @Override
    public CompletionChannel channel() {
        return channel;
    }

    /** True once a completion was lost because the queue was full. */
    boolean overflowed() {
        return overflowed;
    }

    @Override
    public int poll(WorkCompletion[] wcs) {
        ensureOpen();
        Arguments.notNull(wcs, "completion array");
        int n = ring.poll(wcs);
        if (n == 0 && device.progress() > 0) {
            n = ring.poll(wcs); // the invoker mode: this thread just did the device's work
        }
        if (n == 0) {
            emptyPoll();
        }
        return n;
    }

    @Override
    public boolean poll(WorkCompletion wc) {
        ensureOpen();
        Arguments.notNull(wc, "completion");
        if (ring.take(wc) || device.progress() > 0 && ring.take(wc)) {
            return true;
        }
        emptyPoll();
        return false;
    }

    @Override
    public boolean pollBlocking(WorkCompletion wc, long timeout, TimeUnit unit) throws InterruptedException {
        Arguments.notNull(unit, "time unit");
        if (poll(wc)) { // throws when the CQ is destroyed already
            return true;
        }
        if (device.virtualTime()) {
            // A simulated fabric's clock moves only while its thread runs it: wait by running it.
            return device.runUntil(() -> ring.size() > 0, unit.toNanos(timeout)) && poll(wc);
        }
        device.handOver();
        return waiters.take(ring, wc, unit.toNanos(timeout)); // destroyed while waiting: false, as before
    }

    /** A QP delivers its receive completions here: an empty poll then means "waiting for a message". */
    void takesReceives() {
        takesReceives = true;
    }

    /**
     * An empty poll of a CQ that takes receive completions: the application waits for a message
     * and will likely answer it, so the I/O thread should stay awake ({@code PollingHint}). Empty
     * polls of a send-only CQ say nothing of the kind: a bandwidth test polls its send CQ all the
     * time while the I/O thread is busy, and keeping that thread spinning would take CPU from it.
     */
    private void emptyPoll() {
        if (takesReceives) {
            device.emptyPoll();
        }
    }

    /** A QP uses this CQ. */
    void attach() {
        users.add();
    }

    void detach() {
        users.remove();
    }

    void ensureOpen() {
        users.ensureOpen();
    }

    @Override
    public synchronized void close() {
        if (!users.mayClose(n -> "completion queue is still used by " + n + " queue pair(s)")) {
            return;
        }
        if (channel != null) {
            try {
                channel.detach(this); // refused while events taken for this CQ are unacknowledged
            } catch (RuntimeException e) {
                users.abortClose();
                throw e;
            }
        }
        users.markClosed();
        waiters.close();
        device.cqClosed(this);
    }
}
