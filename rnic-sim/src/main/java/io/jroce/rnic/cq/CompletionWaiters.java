package io.jroce.rnic.cq;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

import io.jroce.verbs.WorkCompletion;

/**
 * Threads blocked until a {@link CompletionRing} has an entry for them. The producer reads one
 * counter after each publish and wakes anybody only when it is not zero.
 *
 * <p>Nothing is allocated per wait or wake-up for up to {@link #PARKING_SLOTS} waiting threads:
 * each parks ({@link LockSupport}) in a slot of its own, and the producer unparks the slots'
 * threads. A busy-polling application falls back to a blocking poll after each quiet spell, so
 * this is on its steady path; a {@code Condition} would allocate a node per wait, and a lock
 * shared with the producer a node per contended wake-up. Further waiters (rare: more threads
 * blocked on one CQ than slots) wait on a lock's condition.
 */
public final class CompletionWaiters {
    /** Threads that wait without allocating. */
    static final int PARKING_SLOTS = 8;

    private final AtomicReferenceArray<Thread> parked = new AtomicReferenceArray<>(PARKING_SLOTS);
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    /** Threads in {@link #take}; the producer wakes anybody only when this is not zero. */
    private final AtomicInteger waiting = new AtomicInteger();
    /** Of those, the threads that found no free slot and wait on {@link #notEmpty}. */
    private final AtomicInteger onCondition = new AtomicInteger();
    private volatile boolean closed;

    /**
     * No thread waiting yet.
     */
    public CompletionWaiters() {
        // Links the slots' compare-and-set now, with the CQ: the first use of an access mode links
        // method handles (a few KB, once per JVM), which should not fall on the first blocking poll.
        parked.compareAndSet(0, null, null);
    }

    /**
     * Takes the oldest entry of {@code ring} into {@code wc}, waiting up to {@code timeoutNs} for
     * one; false on timeout or when {@link #close()} is called meanwhile.
     *
     * @throws InterruptedException the thread was interrupted while it waited
     * @param ring the ring to take from
     * @param wc where the entry is copied
     * @param timeoutNs how long to wait at most, in nanoseconds
     * @return true if an entry was taken
     */
    public boolean take(CompletionRing ring, WorkCompletion wc, long timeoutNs) throws InterruptedException {
        // Counted (and the slot taken) before taking: the producer publishes (a volatile write) and
        // then reads the count and the slots, this thread counts itself, takes its slot and then
        // reads the producer index, so one of the two sees the other.
        waiting.incrementAndGet();
        try {
            int slot = claimSlot();
            return slot >= 0 ? parkUntilTaken(slot, ring, wc, timeoutNs) : awaitUntilTaken(ring, wc, timeoutNs);
        } finally {
            waiting.decrementAndGet();
        }
    }

    private int claimSlot() {
        Thread me = Thread.currentThread();
        for (int i = 0; i < PARKING_SLOTS; i++) {
            if (parked.get(i) == null && parked.compareAndSet(i, null, me)) {
                return i;
            }
        }
        return -1;
    }

    private boolean parkUntilTaken(int slot, CompletionRing ring, WorkCompletion wc, long timeoutNs)
        throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNs;
        try {
            while (!ring.take(wc)) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0 || closed) {
                    return false;
                }
                LockSupport.parkNanos(this, remaining); // an unpark before it makes it return at once
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
            }
            return true;
        } finally {
            parked.set(slot, null);
        }
    }

    private boolean awaitUntilTaken(CompletionRing ring, WorkCompletion wc, long timeoutNs)
        throws InterruptedException {
        long remaining = timeoutNs;
        onCondition.incrementAndGet();
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
            onCondition.decrementAndGet();
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
        for (int i = 0; i < PARKING_SLOTS; i++) {
            Thread t = parked.get(i);
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
        if (onCondition.get() != 0) {
            lock.lock();
            try {
                notEmpty.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }
}
