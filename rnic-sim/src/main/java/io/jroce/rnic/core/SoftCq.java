package io.jroce.rnic.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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
 * A completion queue: a ring of preallocated entries, written by the device's I/O thread alone
 * and read by any thread, with no lock between them. The producer fills slot {@code tail} and
 * then publishes {@code tail} (a volatile write); a poller copies slots from {@code head} and then
 * claims them by a CAS on {@code head}, so pollers on several threads need no lock either (a
 * poller whose CAS fails drops its copy and tries again). The producer reuses a slot only after
 * {@code head} has moved past it, so a copy that wins its CAS was never overwritten. A lock and a
 * condition exist only for threads blocked in {@link #pollBlocking}, and the producer touches them
 * only when such a thread waits.
 *
 * <p>With a completion channel the CQ can be armed (Request Completion Notification, IBTA Vol. 1
 * 11.4.2.2): the next matching completion disarms it and queues one event on the channel, so an
 * armed CQ fires once and must be re-armed, and a completion already queued when it is armed does
 * not fire (poll after arming so as not to miss it).
 */
final class SoftCq implements CompletionQueue, CompletionSink {
    private static final int NOTIFY_NONE = 0;
    private static final int NOTIFY_SOLICITED = 1;
    private static final int NOTIFY_ALL = 2;
    private static final VarHandle HEAD;
    private static final VarHandle NOTIFY;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(SoftCq.class, "head", long.class);
            NOTIFY = lookup.findVarHandle(SoftCq.class, "notify", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final SoftDevice device;
    private final SoftCompletionChannel channel;
    private final WorkCompletion[] ring;
    private final ReentrantLock waitLock = new ReentrantLock();
    private final Condition notEmpty = waitLock.newCondition();
    /** Threads in {@link #pollBlocking}; the producer signals only when this is not zero. */
    private final AtomicInteger waiters = new AtomicInteger();
    private final AtomicInteger users = new AtomicInteger();
    /** Next slot to poll; advanced by pollers with a CAS. */
    private volatile long head;
    /** Next slot to fill; written by the I/O thread only. */
    private volatile long tail;
    private volatile boolean overflowed;
    /** What the CQ is armed for: NOTIFY_NONE, NOTIFY_SOLICITED or NOTIFY_ALL; changed by CAS. */
    private volatile int notify = NOTIFY_NONE;
    /** Events taken from the channel for this CQ and not yet acknowledged. Guarded by the channel's lock. */
    int unackedEvents;
    /** Set when the CQ is destroyed, after which the channel drops its events. Guarded by the channel's lock. */
    boolean detachedFromChannel;
    private volatile boolean closed;
    private volatile boolean takesReceives;

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

    /**
     * As above, with the flags of UD receives (GRH) and of SEND with invalidate (the rkey
     * invalidated). I/O thread only: the ring has a single producer.
     */
    boolean push(long wrId, WcStatus status, WcOpcode opcode, int byteLen, boolean withImm, int imm,
                 int qpNum, int srcQp, boolean solicited, boolean grh, boolean withInv, int invalidatedRkey) {
        WorkCompletion wc = claim();
        if (wc == null) {
            return false;
        }
        wc.set(wrId, status, opcode, byteLen, withImm, imm, qpNum, srcQp, 0).flags(grh, withInv, invalidatedRkey);
        publish(solicited);
        return true;
    }

    @Override
    public WorkCompletion claim() {
        long t = tail;
        if (t - head >= ring.length) {
            if (!overflowed) {
                overflowed = true; // CQ_ERR once per CQ (IBTA 11.6.3)
                device.raiseAsyncEvent(new AsyncEvent(AsyncEventType.CQ_ERR, this, 0));
            }
            return null;
        }
        return ring[(int) (t % ring.length)];
    }

    @Override
    public void publish(boolean solicited) {
        long t = tail;
        WcStatus status = ring[(int) (t % ring.length)].status();
        tail = t + 1; // publishes the slot
        if (waiters.get() != 0) {
            waitLock.lock();
            try {
                notEmpty.signalAll();
            } finally {
                waitLock.unlock();
            }
        }
        // IBTA 11.4.2.2: armed for solicited only, a solicited or an unsuccessful completion fires.
        // Retried when an application thread re-arms at the same moment (solicited -> all).
        int armed;
        while ((armed = notify) == NOTIFY_ALL
               || armed == NOTIFY_SOLICITED && (solicited || status != WcStatus.SUCCESS)) {
            if (NOTIFY.compareAndSet(this, armed, NOTIFY_NONE)) {
                channel.post(this); // application code may run here and poll this CQ
                break;
            }
        }
    }

    @Override
    public void requestNotification(boolean solicitedOnly) {
        ensureOpen();
        if (channel == null) {
            throw new InvalidStateException("this completion queue has no completion channel; create it with "
                + "createCq(entries, channel) to request notifications");
        }
        int wanted = solicitedOnly ? NOTIFY_SOLICITED : NOTIFY_ALL;
        int current;
        do {
            current = notify;
            // Arming for any completion stays so when solicited-only is asked next, as rxe keeps it.
        } while (current < wanted && !NOTIFY.compareAndSet(this, current, wanted));
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
        while (true) {
            long h = head;
            int n = (int) Math.min(wcs.length, tail - h);
            if (n <= 0) {
                emptyPoll();
                return 0;
            }
            for (int i = 0; i < n; i++) {
                wcs[i].copyFrom(ring[(int) ((h + i) % ring.length)]);
            }
            if (HEAD.compareAndSet(this, h, h + n)) {
                return n;
            }
        }
    }

    @Override
    public boolean poll(WorkCompletion wc) {
        ensureOpen();
        if (take(wc)) {
            return true;
        }
        emptyPoll();
        return false;
    }

    private boolean take(WorkCompletion wc) {
        while (true) {
            long h = head;
            if (h == tail) {
                return false;
            }
            wc.copyFrom(ring[(int) (h % ring.length)]);
            if (HEAD.compareAndSet(this, h, h + 1)) {
                return true;
            }
        }
    }

    @Override
    public boolean pollBlocking(WorkCompletion wc, long timeout, TimeUnit unit) throws InterruptedException {
        if (poll(wc)) { // throws when the CQ is destroyed already
            return true;
        }
        long remaining = unit.toNanos(timeout);
        // Registered before polling again: the producer publishes tail and then reads waiters, this
        // thread counts itself and then reads tail, so one of the two sees the other.
        waiters.incrementAndGet();
        waitLock.lock();
        try {
            while (!take(wc)) {
                if (remaining <= 0 || closed) {
                    return false; // destroyed while waiting: false, as before
                }
                remaining = notEmpty.awaitNanos(remaining);
            }
            return true;
        } finally {
            waitLock.unlock();
            waiters.decrementAndGet();
        }
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
        waitLock.lock();
        try {
            notEmpty.signalAll();
        } finally {
            waitLock.unlock();
        }
        device.cqClosed(this);
    }
}
