package io.jroce.rnic.core;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.ResourceBusyException;
import io.jroce.verbs.ResourceClosedException;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;

/**
 * A completion queue: a ring of preallocated entries. The I/O thread adds, any thread polls; a
 * short lock guards the ring (a lock-free ring is for the fast-data-path work).
 */
final class SoftCq implements CompletionQueue {
    private final SoftDevice device;
    private final WorkCompletion[] ring;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final AtomicInteger users = new AtomicInteger();
    private long head;
    private long tail;
    private boolean overflowed;
    private volatile boolean closed;

    SoftCq(SoftDevice device, int entries) {
        if (entries < 1 || entries > DeviceLimits.MAX_CQE) {
            throw new InvalidAttributeException("CQ entries must be 1.." + DeviceLimits.MAX_CQE + ", got " + entries);
        }
        this.device = device;
        this.ring = new WorkCompletion[entries];
        for (int i = 0; i < entries; i++) {
            ring[i] = new WorkCompletion();
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
        lock.lock();
        try {
            if (tail - head == ring.length) {
                overflowed = true;
                return false;
            }
            ring[(int) (tail % ring.length)].set(wrId, status, opcode, byteLen, withImm, imm, qpNum, srcQp, 0);
            tail++;
            notEmpty.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
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
