package io.jroce.rnic.core;

import java.util.function.Supplier;

/**
 * A work queue (send or receive) as a ring of preallocated WQEs. Application threads append under
 * a lock; the I/O thread consumes from the head. {@code tail} is published with a volatile write
 * after the slot is filled, so the I/O thread sees whole WQEs without taking the lock. The two
 * indexes share a cache line, as in the CQ's ring, where padding them apart showed no measurable
 * gain (docs/benchmarks.md, "Padding the CQ's indexes").
 */
final class WorkQueueRing<W> {
    private final Object[] slots;
    private volatile long head;
    private volatile long tail;

    WorkQueueRing(int capacity, Supplier<W> factory) {
        slots = new Object[capacity];
        for (int i = 0; i < capacity; i++) {
            slots[i] = factory.get();
        }
    }

    int capacity() {
        return slots.length;
    }

    /** The slot to fill next, or null when the ring is full. Call under the producer lock. */
    W claim() {
        long t = tail;
        return t - head == slots.length ? null : at(t);
    }

    /** Publishes the claimed slot. Call under the producer lock. */
    void publish() {
        tail = tail + 1;
    }

    @SuppressWarnings("unchecked")
    W at(long index) {
        return (W) slots[(int) (index % slots.length)];
    }

    long head() {
        return head;
    }

    long tail() {
        return tail;
    }

    boolean isEmpty() {
        return head == tail;
    }

    /** Retires the head WQE. I/O thread only. */
    void pop() {
        head = head + 1;
    }

    /** Drops everything (RESET). Call with producers locked out. */
    void clear() {
        head = tail;
    }
}
