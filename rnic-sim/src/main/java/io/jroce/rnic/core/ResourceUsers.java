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
    private final AtomicInteger count = new AtomicInteger();
    private final String closedMessage;
    private volatile boolean closed;

    /** {@code closedMessage}: what {@link #ensureOpen()} says once the resource is closed. */
    ResourceUsers(String closedMessage) {
        this.closedMessage = closedMessage;
    }

    /** One more user. */
    void add() {
        count.incrementAndGet();
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
     * remains; true otherwise, and the owner then closes and calls {@link #markClosed()}.
     */
    boolean mayClose(IntFunction<String> busyMessage) {
        if (closed) {
            return false;
        }
        int n = count.get();
        if (n > 0) {
            throw new ResourceBusyException(busyMessage.apply(n));
        }
        return true;
    }

    void markClosed() {
        closed = true;
    }
}
