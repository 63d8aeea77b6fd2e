package io.jroce.rnic.runtime;

import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.jroce.rnic.core.IoContext;
import io.jroce.stack.transport.PolledTransport;
import io.jroce.verbs.VerbsException;

/**
 * The I/O "thread" of a device in the {@link io.jroce.rnic.ProgressMode#INVOKER invoker mode}: not a
 * thread but an owner, whichever thread holds the device's progress lock. Application threads take
 * it without waiting when they poll a CQ, post or call {@code progress()}, and do the device's work
 * on their own thread: queued tasks, the datagrams ready on the sockets, due timers, the flush.
 * Another thread that wants the device (a second poller) finds it taken and goes on; a task it
 * queued runs before the owner lets go. While no application thread has progressed the device for
 * the fallback window ({@code jroce.invoker.fallbackAfterUs}), the {@link ProgressFallback} thread takes the same lock and serves
 * it, woken by the sockets.
 *
 * <p><b>One owner at a time.</b> Every piece of RNIC state is touched only with the lock held, so
 * the engines stay single-threaded as they are on the event loop. {@link #call} waits for the lock
 * (a blocking verb such as Modify QP); pollers then step aside ({@link #pendingCalls}) so that a
 * busy-polling thread cannot starve it.
 */
public final class InvokerIoContext implements IoContext {
    private static final Logger LOG = LoggerFactory.getLogger(InvokerIoContext.class);

    /** Datagrams read per receive call of a progress round. */
    static final int RECEIVE_BATCH = 32;
    /** Tasks queued without allocating; beyond, they overflow into a linked queue (rare: contention). */
    private static final int TASK_QUEUE_CAPACITY = 4096;

    private final ReentrantLock owner = new ReentrantLock();
    private final Queue<Runnable> tasks = new ManyToOneConcurrentArrayQueue<>(TASK_QUEUE_CAPACITY);
    private final Queue<Runnable> overflow = new ConcurrentLinkedQueue<>();
    /** Threads waiting in {@link #call}: pollers do not take the lock while any waits. */
    private final AtomicInteger pendingCalls = new AtomicInteger();
    private final long timerTickNs;
    /** How long after an application thread's last {@link #progress} the fallback thread takes over. */
    private final long fallbackAfterNs;
    /** How long the fallback thread goes on polling after a round that found nothing. */
    private final long fallbackSpinNs;
    private final PolledTransport transport;
    /** Plain ACKs held until the flush, so that they leave after what the turn's thread posted. */
    private final AcknowledgementHold hold = new AcknowledgementHold();
    /** The device's timer entry point; null until {@link #start}. */
    private volatile Runnable timers;
    private ProgressFallback fallback;
    /** When the timers are next due. Owner only. */
    private volatile long nextTimerNs;
    /** Whether the owner is in a turn ({@link #beginTurn} to {@link #release}). Owner only. */
    private boolean inTurn;
    /**
     * The device's time during the owner's turn, shared by what the turn does (0: read afresh at
     * the next {@link #nowNs}). Owner only. A clock read costs tens of nanoseconds on a virtual
     * machine and a ping-pong's turnaround made about eight, one per packet, per drain, per post.
     * An application thread's round reads it after its flush; it is read again (lazily) after
     * queued tasks ran, so that the timers a packet arms count from when it was read, not from
     * before a flush, a task or a pause that came first.
     */
    private long turnNs;
    /** When an application thread last asked to progress the device; 0: handed over. */
    private volatile long lastApplicationNs;
    private volatile boolean closed;

    /**
     * Creates the context of one invoker-mode device.
     *
     * @param timerTickNs how often the device's timers run
     * @param transport   the device's sockets, read and written by whichever thread owns the device
     * @param fallbackAfterNs how long after an application thread's last progress the fallback
     *                    thread takes over
     * @param fallbackSpinNs how long the fallback thread goes on polling after a round that found
     *                    nothing before it sleeps on the sockets (0: it sleeps at once)
     */
    public InvokerIoContext(long timerTickNs, PolledTransport transport, long fallbackAfterNs, long fallbackSpinNs) {
        this.timerTickNs = timerTickNs;
        this.fallbackAfterNs = fallbackAfterNs;
        this.fallbackSpinNs = fallbackSpinNs;
        this.transport = transport;
        this.nextTimerNs = System.nanoTime() + timerTickNs;
    }

    /**
     * Starts the timers ({@code timers}, the device's entry point, run every tick by whichever
     * thread owns the device) and the {@link ProgressFallback} thread; once the device is open
     * (the device is built with this context, so its timer entry cannot come in through the
     * constructor).
     *
     * @param timers the device's timer entry point
     * @param deviceName the device's name, for the fallback thread's name
     */
    public void start(Runnable timers, String deviceName) {
        if (fallback != null) {
            throw new IllegalStateException("already started");
        }
        this.timers = timers;
        fallback = new ProgressFallback(this, transport, deviceName);
        fallback.start();
    }

    @Override
    public boolean inIoThread() {
        return owner.isHeldByCurrentThread();
    }

    /**
     * Runs {@code task} as the owner: at once on the calling thread when the device is free (a post
     * builds its packets before it returns; they leave at once, or with the next call of an
     * application thread that is polling the device: {@link #endTurn}), else after the current
     * owner's work, before it lets go. Never blocks.
     *
     * @throws RejectedExecutionException once the device is closed
     */
    @Override
    public void execute(Runnable task) {
        if (closed) {
            throw new RejectedExecutionException("the device is closed");
        }
        if (owner.isHeldByCurrentThread()) {
            enqueue(task); // run before this thread lets go
            return;
        }
        if (pendingCalls.get() != 0 || !owner.tryLock()) {
            enqueue(task);
            // The owner may have found the queue empty and let go between the attempt above and
            // the enqueue: try again, so that the task does not wait for the next poll. If the
            // device is still taken, or a caller waits for it, that thread runs the queue (it
            // looks at it after taking, or after letting go of, the lock).
            if (pendingCalls.get() != 0 || !owner.tryLock()) {
                return;
            }
            try {
                if (!closed) {
                    long now = beginTurn(System.nanoTime());
                    runTasks();
                    endTurn(now);
                }
            } finally {
                release();
            }
            return;
        }
        try {
            if (closed) {
                throw new RejectedExecutionException("the device is closed"); // it closed since the check above
            }
            long now = beginTurn(System.nanoTime());
            if (runTasks() > 0) {
                refreshTurnClock(); // the task counts from after what ran first
            }
            runSafely(task);
            endTurn(now);
        } finally {
            release();
        }
    }

    /**
     * The end of a turn that {@link #execute} ran (a post): due timers, then the flush, unless an
     * application thread is polling the device. Then what the post sent waits for that thread's
     * next call ({@link #progress} flushes first), as a doorbell that the NIC serves at its next
     * turn: a burst of posts (perftest's write_bw posts up to its send queue's depth, then polls)
     * leaves in one sendmmsg(2), its same-size packets as one UDP GSO run, instead of one system
     * call per post. If the thread stops calling, the fallback thread flushes once the window
     * has run out, or at once when the thread blocks on the device ({@link #handOver}).
     */
    private void endTurn(long now) {
        timers(now);
        if (!applicationPolling(now)) {
            flushTransport();
        }
    }

    /** Whether an application thread progressed the device within the fallback window. */
    private boolean applicationPolling(long now) {
        long last = lastApplicationNs;
        return last != 0 && now - last < fallbackAfterNs;
    }

    /** Runs {@code task} as the owner and returns its result, waiting for the lock if another thread holds it. */
    @Override
    public <T> T call(Callable<T> task) {
        if (owner.isHeldByCurrentThread()) {
            return callNow(task);
        }
        pendingCalls.incrementAndGet();
        owner.lock();
        pendingCalls.decrementAndGet();
        try {
            if (closed) {
                throw new io.jroce.verbs.TransportException("the device's transport is closed");
            }
            long now = beginTurn(System.nanoTime());
            if (runTasks() > 0) {
                refreshTurnClock();
            }
            T result = callNow(task);
            maintenance(now);
            return result;
        } finally {
            release();
        }
    }

    private static <T> T callNow(Callable<T> task) {
        try {
            return task.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new VerbsException("task failed: " + e, e);
        }
    }

    /**
     * The owner's time during a turn ({@link #turnNs}: read once for the turn's start, again after
     * queued tasks ran); a fresh read on any other thread or outside a turn.
     */
    @Override
    public long nowNs() {
        if (!inTurn || !owner.isHeldByCurrentThread()) {
            return System.nanoTime();
        }
        long t = turnNs;
        if (t == 0) {
            t = System.nanoTime();
            turnNs = t == 0 ? 1 : t;
        }
        return t;
    }

    /** Starts the owner's turn at {@code now}, the instant the caller read (the outermost hold; {@link #release} ends it). */
    private long beginTurn(long now) {
        if (!inTurn) {
            inTurn = true;
            turnNs = now == 0 ? 1 : now;
        }
        return now;
    }

    /** The next {@link #nowNs} of this turn reads the clock again. */
    private void refreshTurnClock() {
        turnNs = 0;
    }

    private void endTurnClock() {
        inTurn = false;
        turnNs = 0;
    }

    /**
     * An application thread's turn: if the device is free, runs its work on this thread (the flush
     * of what the previous round sent, queued tasks, up to {@link #RECEIVE_BATCH} ready datagrams,
     * due timers; what this round sends waits for the thread's next call) and returns how much it did; 0 when another thread owns it or nothing was ready. Also tells the fallback
     * thread that an application thread is progressing the device.
     */
    @Override
    public int progress() {
        if (closed || pendingCalls.get() != 0 || owner.isHeldByCurrentThread() || !owner.tryLock()) {
            markApplication(System.nanoTime());
            return 0;
        }
        try {
            if (closed) {
                return 0; // it may have closed since the check above
            }
            // What the last round sent (an ACK for the message this thread just polled) leaves now,
            // or with the answer this thread posted meanwhile, in one system call: not at the end of
            // the round, where it would delay the completion the caller waits for.
            flushTransport();
            // The clock is read after the flush, whose system call comes first on a ping-pong's path
            // (the answer the thread posted). The round's datagrams share this instant unless
            // queued tasks run before them (round): nothing else comes between.
            long now = System.nanoTime();
            markApplication(now);
            return round(beginTurn(now), false);
        } finally {
            release();
        }
    }

    /** An application thread progressed the device at {@code now} (never stored as 0: "handed over"). */
    private void markApplication(long now) {
        lastApplicationNs = now == 0 ? 1 : now;
    }

    /** The calling application thread is about to block: the fallback thread takes over now. */
    @Override
    public void handOver() {
        if (lastApplicationNs != 0) {
            lastApplicationNs = 0;
            transport.wakeUp();
        }
    }

    /** How long the fallback thread polls after a round that found nothing, before it sleeps (0: not at all). */
    long fallbackSpinNs() {
        return fallbackSpinNs;
    }

    long fallbackAfterNs() {
        return fallbackAfterNs;
    }

    /** When an application thread last progressed the device (0: it handed over). */
    long lastApplicationNs() {
        return lastApplicationNs;
    }

    /**
     * The fallback thread's round: waits for the lock (pollers step aside meanwhile, so it is not
     * starved), then as {@link #progress}. It waits by yielding between attempts rather than in
     * {@code lock()}, which allocates a queue node each time it waits: the fallback thread meets a
     * poller at each hand-over, and the holder's turn is one round.
     */
    int fallbackRound() {
        pendingCalls.incrementAndGet();
        while (!owner.tryLock()) {
            Thread.yield();
        }
        pendingCalls.decrementAndGet();
        try {
            return closed ? 0 : round(beginTurn(System.nanoTime()), true);
        } finally {
            release();
        }
    }

    /** Nanoseconds until the timers are due (0 when they are), as of {@code nowNs}. Any thread: a hint. */
    long nanosToTimers(long nowNs) {
        return Math.max(0, nextTimerNs - nowNs);
    }

    /**
     * Closes the transport as the owner, so that no round reads a closed socket; later calls are
     * refused and progress does nothing. Idempotent; from any thread, the owner included.
     */
    public void close() {
        if (fallback != null) {
            // As the owner (a device closed from an async-event listener), do not wait for the
            // fallback thread: it may be waiting for this very lock. It ends once it has the device
            // and sees it closed.
            fallback.stop(!owner.isHeldByCurrentThread());
        }
        owner.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            runTasks(); // what was queued before the close still runs (e.g. the device's last events)
            // What the device sent and a poll left queued (an ACK it defers to the thread's next
            // call) leaves before the sockets close, as a NIC sends what it was handed.
            flushTransport();
            transport.close();
        } finally {
            owner.unlock();
        }
    }


    /** Queued tasks, the ready datagrams, due timers; then the flush unless the caller defers it. */
    private int round(long now, boolean flush) {
        int work = runTasks();
        if (work > 0) {
            // The batch's packets arm timers from their own instant, read when the first of them
            // needs it: not from before tasks that may have run long (an application's listener).
            refreshTurnClock();
        }
        work += transport.receive(RECEIVE_BATCH);
        work += runTasks();
        work += timers(now);
        if (flush) {
            flushTransport();
        }
        return work;
    }

    /** What the turns sent leaves: the ACKs held last ({@link AcknowledgementHold}), then the flush. */
    private void flushTransport() {
        if (hold.held() > 0) {
            hold.release(transport);
        }
        transport.flush();
    }

    /** The ACKs held until the flush. Owner only. */
    AcknowledgementHold acknowledgementHold() {
        return hold;
    }

    /** Due timers and the flush of what the work sent. Owner only. */
    private int maintenance(long now) {
        int work = timers(now);
        flushTransport();
        return work;
    }

    private int timers(long now) {
        if (closed) {
            return 0; // closed by this round (the owner closing the device from a listener): no timers
        }
        int work = 0;
        Runnable t = timers;
        if (t != null && now - nextTimerNs >= 0) {
            nextTimerNs = now + timerTickNs;
            runSafely(t);
            work++;
        }
        return work;
    }

    private void enqueue(Runnable task) {
        if (!overflow.isEmpty() || !tasks.offer(task)) {
            overflow.add(task);
        }
    }

    /**
     * Runs the tasks queued when it starts, not those they queue: a task that asks for another
     * turn (the READ responses' pacer) gets it after the sockets were read, as on the event loop.
     */
    private int runTasks() {
        int queued = tasks.size();
        int overflowed = overflow.size();
        int n = 0;
        Runnable t;
        while (n < queued && (t = tasks.poll()) != null) {
            runSafely(t);
            n++;
        }
        for (int i = 0; i < overflowed && (t = overflow.poll()) != null; i++) {
            runSafely(t);
            n++;
        }
        return n;
    }

    private static void runSafely(Runnable task) {
        try {
            task.run();
        } catch (Throwable t) {
            if (t instanceof VirtualMachineError e) {
                throw e;
            }
            // As on the event loop (Netty logs what a task throws): one task's bug, an engine's
            // assert included, must not stop the device.
            LOG.error("device task failed", t);
        }
    }

    /**
     * Lets go of the device at the outermost level. Work queued meanwhile by another thread (it
     * found the lock taken) or by this round (a task asking for another turn) is done first: this
     * thread takes the lock again for a round, if nobody else did and no caller waits for it.
     */
    private void release() {
        if (owner.getHoldCount() > 1) {
            owner.unlock();
            return;
        }
        while (true) {
            endTurnClock();
            owner.unlock();
            if ((tasks.isEmpty() && overflow.isEmpty()) || closed || pendingCalls.get() != 0 || !owner.tryLock()) {
                return;
            }
            try {
                round(beginTurn(System.nanoTime()), true);
            } catch (Throwable t) {
                endTurnClock();
                owner.unlock(); // whatever the round threw, the device is not left locked
                throw t;
            }
        }
    }
}
