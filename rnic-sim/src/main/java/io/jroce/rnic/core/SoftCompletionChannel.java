package io.jroce.rnic.core;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.jroce.verbs.Arguments;
import io.jroce.verbs.CompletionChannel;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.ResourceBusyException;
import io.jroce.verbs.ResourceClosedException;

/**
 * A completion event channel (ibv_comp_channel; the completion event handler of IBTA Vol. 1
 * 11.5.1): a queue of "this CQ had a completion" events, filled by the I/O thread when an armed CQ
 * fires and emptied by {@link #getEvent}, so that an application thread can sleep instead of
 * polling.
 *
 * <p>A CQ appears once per event it fired. Every event taken must be acknowledged on its CQ
 * ({@link SoftCq#ackEvents}) before that CQ can be destroyed, as with ibv_ack_cq_events: this is
 * what makes it safe to use the CQ an event names. Events still queued when their CQ is
 * destroyed are removed, as the kernel does. One lock guards the queue and every CQ's count of
 * unacknowledged events; the I/O thread holds it only to append one reference.
 */
final class SoftCompletionChannel implements CompletionChannel {
    /** Enough for several events per CQ of a typical application; the queue grows (rarely) beyond it. */
    private static final int INITIAL_EVENTS = 64;

    private final SoftDevice device;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition ready = lock.newCondition();
    private final ArrayDeque<SoftCq> events = new ArrayDeque<>(INITIAL_EVENTS);
    private int cqs;
    private boolean closed;

    SoftCompletionChannel(SoftDevice device) {
        this.device = device;
    }

    SoftDevice device() {
        return device;
    }

    /** A CQ is created with this channel. */
    void attach() {
        lock.lock();
        try {
            if (closed) {
                throw new ResourceClosedException("completion channel is destroyed");
            }
            cqs++;
        } finally {
            lock.unlock();
        }
    }

    /** {@code cq} fired: queue one event for it and wake the waiters. I/O thread. */
    void post(SoftCq cq) {
        lock.lock();
        try {
            if (cq.detachedFromChannel) {
                return; // destroyed meanwhile: nobody may see it any more
            }
            events.addLast(cq);
            ready.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public CompletionQueue getEvent(long timeout, TimeUnit unit) throws InterruptedException {
        Arguments.notNull(unit, "time unit");
        long remaining = unit.toNanos(timeout);
        device().progress(); // the invoker mode: what already arrived may fire the CQ
        if (device().virtualTime() && remaining > 0) {
            // A simulated fabric's clock moves only while its thread runs it: wait by running it.
            device().runUntil(this::hasEvents, remaining);
            remaining = 0;
        }
        lock.lockInterruptibly();
        try {
            ensureOpen();
            while (events.isEmpty()) {
                if (remaining <= 0) {
                    return null;
                }
                device().handOver();
                remaining = ready.awaitNanos(remaining);
                if (closed) {
                    throw new ResourceClosedException("completion channel was destroyed while waiting for an event");
                }
            }
            SoftCq cq = events.pollFirst();
            cq.unackedEvents++;
            return cq;
        } finally {
            lock.unlock();
        }
    }

    private boolean hasEvents() {
        lock.lock();
        try {
            return !events.isEmpty() || closed;
        } finally {
            lock.unlock();
        }
    }

    /** Acknowledges {@code count} events taken for {@code cq} (ibv_ack_cq_events). */
    void acknowledge(SoftCq cq, int count) {
        lock.lock();
        try {
            if (count > cq.unackedEvents) {
                throw new InvalidAttributeException("cannot acknowledge " + count + " event(s): only "
                    + cq.unackedEvents + " taken from the channel for this CQ are unacknowledged");
            }
            cq.unackedEvents -= count;
        } finally {
            lock.unlock();
        }
    }

    /**
     * {@code cq} is being destroyed: refused while events taken for it are unacknowledged (the
     * application may still be using the CQ the event named); otherwise its queued events go.
     */
    void detach(SoftCq cq) {
        lock.lock();
        try {
            if (cq.unackedEvents > 0) {
                throw new ResourceBusyException("completion queue has " + cq.unackedEvents + " event(s) taken from "
                    + "its channel and not acknowledged; call ackEvents first (ibv_ack_cq_events)");
            }
            cq.detachedFromChannel = true;
            while (events.removeFirstOccurrence(cq)) {
                // drop every queued event of the destroyed CQ
            }
            cqs--;
        } finally {
            lock.unlock();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new ResourceClosedException("completion channel is destroyed");
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            if (cqs > 0) {
                throw new ResourceBusyException("completion channel is still used by " + cqs
                    + " completion queue(s); destroy them first");
            }
            closed = true;
            ready.signalAll();
        } finally {
            lock.unlock();
        }
        device.channelClosed(this);
    }
}
