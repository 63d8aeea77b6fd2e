package io.jroce.rnic.core;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import io.jroce.verbs.ResourceBusyException;
import io.jroce.verbs.ResourceClosedException;

/**
 * The lifecycle of a resource that others use (a CQ used by QPs, an SRQ by QPs, a PD by MRs, QPs,
 * AHs, SRQs and MWs): it counts its users, refuses to close while one remains, and once closed
 * refuses every verb. The owner closes under its own lock:
 * {@code if (users.mayClose(...)) { undo what it holds; users.markClosed(); }}.
 */
final class ResourceUsers {
    /** While the owner closes: {@link #add()} refuses from the moment the count was found 0. */
    private static final int CLOSING = Integer.MIN_VALUE;

    private final AtomicInteger count = new AtomicInteger();
    private final String closedMessage;
    private volatile boolean closed;

    /** {@code closedMessage}: what {@link #ensureOpen()} says once the resource is closed. */
    ResourceUsers(String closedMessage) {
        this.closedMessage = closedMessage;
    }

    /**
     * One more user; refused with {@link ResourceClosedException} once the owner is closing or
     * closed, so a user never attaches to a resource whose close found no users.
     */
    void add() {
        while (true) {
            int c = count.get();
            if (c == CLOSING || closed) {
                throw new ResourceClosedException(closedMessage);
            }
            if (count.compareAndSet(c, c + 1)) {
                return;
            }
        }
    }

    /** One user fewer. */
    void remove() {
        count.decrementAndGet();
    }

    void ensureOpen() {
        if (closed) {
            throw new ResourceClosedException(closedMessage);
        }
    }

    /**
     * False when the resource is closed already (closing again does nothing); throws
     * {@link ResourceBusyException} with {@code busyMessage} of the number of users while any
     * remains; true otherwise: from then on no user can be added, and the owner closes and calls
     * {@link #markClosed()}, or {@link #abortClose()} if it cannot close after all.
     */
    boolean mayClose(IntFunction<String> busyMessage) {
        while (true) {
            if (closed) {
                return false;
            }
            int c = count.get();
            if (c > 0) {
                throw new ResourceBusyException(busyMessage.apply(c));
            }
            if (c == CLOSING || count.compareAndSet(0, CLOSING)) {
                return true;
            }
        }
    }

    /** The owner could not close after {@link #mayClose} allowed it: users may attach again. */
    void abortClose() {
        count.compareAndSet(CLOSING, 0);
    }

    void markClosed() {
        closed = true;
    }
}
