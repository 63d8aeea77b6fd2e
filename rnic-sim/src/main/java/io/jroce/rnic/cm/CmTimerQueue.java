package io.jroce.rnic.cm;

import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The connections whose timer runs, earliest deadline first: a tick looks only at those due, so
 * its cost does not grow with the connections held (a walk over all of them on every expiry let
 * many idle connections slow the I/O thread), and an exception in one expiry leaves the other
 * timers armed. Keyed on the deadline the connection was queued with and its (unique) comm ID.
 * A timer is started only through {@link #arm}; the queue is the one owner of a connection's
 * {@code queued} and {@code queuedDeadlineNs}. I/O thread.
 */
final class CmTimerQueue {
    /** What an expiry does with a due connection (it may re-arm it by assigning its deadline). */
    interface Expiry {
        void expire(CmConnection c, long nowNs);
    }

    private final TreeSet<CmConnection> timers = new TreeSet<>(CmTimerQueue::compareDeadlines);

    /** Starts (or moves) the connection's timer: the only way into the queue besides an expiry's re-arm. */
    void arm(CmConnection c, CmConnection.Timer timer, long deadlineNs) {
        unqueue(c);
        c.timer = timer;
        c.deadlineNs = deadlineNs;
        queue(c);
    }

    /** Stops the connection's timer in place: its entry is dropped when it comes due. */
    void stop(CmConnection c) {
        c.timer = CmConnection.Timer.NONE;
    }

    /** Stops the connection's timer and takes it out of the queue (a forgotten connection must not stay reachable). */
    void cancel(CmConnection c) {
        c.timer = CmConnection.Timer.NONE;
        unqueue(c);
    }

    /**
     * Expires every connection due at {@code nowNs} that {@code live} still holds. Each connection popped
     * is due; one whose deadline moved (an expiry re-arms by assignment) goes back.
     */
    void expireDue(long nowNs, Predicate<CmConnection> live, Expiry expiry) {
        while (!timers.isEmpty() && timers.first().queuedDeadlineNs - nowNs <= 0) {
            CmConnection c = timers.pollFirst();
            c.queued = false;
            if (c.timer == CmConnection.Timer.NONE || !live.test(c)) {
                continue; // the timer was stopped in place, or the connection forgotten
            }
            if (c.deadlineNs - nowNs <= 0) {
                expiry.expire(c, nowNs);
            }
            if (c.timer != CmConnection.Timer.NONE && !c.queued && live.test(c)) {
                queue(c);
            }
        }
    }

    private void queue(CmConnection c) {
        c.queuedDeadlineNs = c.deadlineNs;
        c.queued = timers.add(c);
    }

    private void unqueue(CmConnection c) {
        if (c.queued) {
            timers.remove(c);
            c.queued = false;
        }
    }

    /** Earliest deadline first (wrap-safe, as every deadline comparison), then the comm ID. */
    private static int compareDeadlines(CmConnection a, CmConnection b) {
        long d = a.queuedDeadlineNs - b.queuedDeadlineNs;
        return d != 0 ? (d < 0 ? -1 : 1) : Integer.compare(a.localCommId, b.localCommId);
    }
}
