package io.jroce.rnic.core;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.jroce.verbs.AsyncEvent;
import io.jroce.verbs.AsyncEventType;
import io.jroce.verbs.CompletionChannel;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.ResourceBusyException;
import io.jroce.verbs.ResourceClosedException;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;

/**
 * A completion queue: a ring of preallocated entries. The I/O thread adds, any thread polls; a
 * short lock guards the ring (a lock-free ring is for the fast-data-path work).
 *
 * <p>With a completion channel the CQ can be armed (Request Completion Notification, IBTA Vol. 1
 * 11.4.2.2): the next matching completion disarms it and queues one event on the channel, so an
 * armed CQ fires once and must be re-armed, and a completion already queued when it is armed does
 * not fire (poll after arming so as not to miss it).
 */
final class SoftCq implements CompletionQueue {
    private static final int NOTIFY_NONE = 0;
    private static final int NOTIFY_SOLICITED = 1;
    private static final int NOTIFY_ALL = 2;

    private final SoftDevice device;
    private final SoftCompletionChannel channel;
    private final WorkCompletion[] ring;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final AtomicInteger users = new AtomicInteger();
    private long head;
    private long tail;
    private boolean overflowed;
    /** What the CQ is armed for: NOTIFY_NONE, NOTIFY_SOLICITED or NOTIFY_ALL. Guarded by {@code lock}. */
    private int notify = NOTIFY_NONE;
    /** Events taken from the channel for this CQ and not yet acknowledged. Guarded by the channel's lock. */
    int unackedEvents;
    /** Set when the CQ is destroyed, after which the channel drops its events. Guarded by the channel's lock. */
    boolean detachedFromChannel;
    private volatile boolean closed;

    /** A CQ of {@code entries} entries reporting events to {@code channel} (null for none). */
    SoftCq(SoftDevice device, int entries, SoftCompletionChannel channel) {
        if (entries < 1 || entries > DeviceLimits.MAX_CQE) {
            throw new InvalidAttributeException("CQ entries must be 1.." + DeviceLimits.MAX_CQE + ", got " + entries);
        }
        this.device = device;
        this.channel = channel;
        this.ring = new WorkCompletion[entries];
        for (int i = 0; i < entries; i++) {
            ring[i] = new WorkCompletion();
        }
        if (channel != null) {
            channel.attach(); // last: nothing to undo when the channel is already destroyed
        }
    }

    SoftDevice device() {
        return device;
    }

    @Override
    public int capacity() {
        return ring.length;
    }

    /** Adds a completion; false (and the CQ marked overflowed) when it is full (IBTA 11.4.2.1). */
    boolean push(long wrId, WcStatus status, WcOpcode opcode, int byteLen, boolean withImm, int imm,
                 int qpNum, int srcQp) {
        return push(wrId, status, opcode, byteLen, withImm, imm, qpNum, srcQp, false);
    }

    /**
     * Adds a completion; {@code solicited} says the message carried the solicited-event bit, which
     * matters to a CQ armed for solicited events only. The first overflow raises CQ_ERR (IBTA
     * 11.6.3); a completion that matches what the CQ is armed for fires its channel.
     */
    boolean push(long wrId, WcStatus status, WcOpcode opcode, int byteLen, boolean withImm, int imm,
                 int qpNum, int srcQp, boolean solicited) {
        return push(wrId, status, opcode, byteLen, withImm, imm, qpNum, srcQp, solicited, false, false, 0);
    }

    /** As above, with the flags of UD receives (GRH) and of SEND with invalidate (the rkey invalidated). */
    boolean push(long wrId, WcStatus status, WcOpcode opcode, int byteLen, boolean withImm, int imm,
                 int qpNum, int srcQp, boolean solicited, boolean grh, boolean withInv, int invalidatedRkey) {
        boolean added;
        boolean fire;
        lock.lock();
        try {
            added = tail - head < ring.length;
            if (added) {
                ring[(int) (tail % ring.length)].set(wrId, status, opcode, byteLen, withImm, imm, qpNum, srcQp, 0)
                    .flags(grh, withInv, invalidatedRkey);
                tail++;
                notEmpty.signalAll();
                // IBTA 11.4.2.2: armed for solicited only, a solicited or an unsuccessful completion fires.
                fire = notify == NOTIFY_ALL
                    || notify == NOTIFY_SOLICITED && (solicited || status != WcStatus.SUCCESS);
                if (fire) {
                    notify = NOTIFY_NONE;
                }
            } else {
                fire = !overflowed; // CQ_ERR once per CQ
                overflowed = true;
            }
        } finally {
            lock.unlock();
        }
        // Outside the lock: a listener is application code and may poll this CQ.
        if (fire && added) {
            channel.post(this);
        } else if (fire) {
            device.raiseAsyncEvent(new AsyncEvent(AsyncEventType.CQ_ERR, this, 0));
        }
        return added;
    }

    @Override
    public void requestNotification(boolean solicitedOnly) {
        ensureOpen();
        if (channel == null) {
            throw new InvalidStateException("this completion queue has no completion channel; create it with "
                + "createCq(entries, channel) to request notifications");
        }
        int wanted = solicitedOnly ? NOTIFY_SOLICITED : NOTIFY_ALL;
        lock.lock();
        try {
            // Arming for any completion stays so when solicited-only is asked next, as rxe keeps it.
            notify = Math.max(notify, wanted);
        } finally {
            lock.unlock();
        }
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
        lock.lock();
        try {
            return overflowed;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int poll(WorkCompletion[] wcs) {
        ensureOpen();
        lock.lock();
        try {
            int n = 0;
            while (n < wcs.length && head != tail) {
                wcs[n++].copyFrom(ring[(int) (head++ % ring.length)]);
            }
            return n;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean poll(WorkCompletion wc) {
        ensureOpen();
        lock.lock();
        try {
            if (head == tail) {
                return false;
            }
            wc.copyFrom(ring[(int) (head++ % ring.length)]);
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean pollBlocking(WorkCompletion wc, long timeout, TimeUnit unit) throws InterruptedException {
        ensureOpen();
        long remaining = unit.toNanos(timeout);
        lock.lock();
        try {
            while (head == tail) {
                if (remaining <= 0 || closed) {
                    return false;
                }
                remaining = notEmpty.awaitNanos(remaining);
            }
            wc.copyFrom(ring[(int) (head++ % ring.length)]);
            return true;
        } finally {
            lock.unlock();
        }
    }

    void attach() {
        users.incrementAndGet();
    }

    void detach() {
        users.decrementAndGet();
    }

    void ensureOpen() {
        if (closed) {
            throw new ResourceClosedException("completion queue is destroyed");
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        int n = users.get();
        if (n > 0) {
            throw new ResourceBusyException("completion queue is still used by " + n + " queue pair(s)");
        }
        if (channel != null) {
            channel.detach(this); // refused while events taken for this CQ are unacknowledged
        }
        closed = true;
        lock.lock();
        try {
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
        device.cqClosed(this);
    }
}
