package io.jroce.rnic.cq;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.jroce.verbs.WorkCompletion;

/**
 * Threads blocked until a {@link CompletionRing} has an entry for them. The lock and the condition
 * are touched only when a thread waits: the producer reads one counter after each publish and
 * signals only when it is not zero.
 */
public final class CompletionWaiters {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    /** Threads in {@link #take}; the producer signals only when this is not zero. */
    private final AtomicInteger waiting = new AtomicInteger();
    private volatile boolean closed;

    /**
     * Takes the oldest entry of {@code ring} into {@code wc}, waiting up to {@code timeoutNs} for
     * one; false on timeout or when {@link #close()} is called meanwhile.
     */
    public boolean take(CompletionRing ring, WorkCompletion wc, long timeoutNs) throws InterruptedException {
        long remaining = timeoutNs;
        // Counted before taking: the producer publishes (a volatile write) and then reads the
        // count, this thread counts itself and then reads the producer index, so one of the two
        // sees the other.
        waiting.incrementAndGet();
        lock.lock();
        try {
            while (!ring.take(wc)) {
                if (remaining <= 0 || closed) {
                    return false;
                }
                remaining = notEmpty.awaitNanos(remaining);
            }
            return true;
        } finally {
            lock.unlock();
            waiting.decrementAndGet();
        }
    }

    /** An entry was published: wakes the waiting threads, if any. Producer only. */
    public void published() {
        if (waiting.get() != 0) {
            wakeAll();
        }
    }

    /** The queue is destroyed: every waiting thread returns false, and so will later ones. */
    public void close() {
        closed = true;
        wakeAll();
    }

    private void wakeAll() {
        lock.lock();
        try {
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
