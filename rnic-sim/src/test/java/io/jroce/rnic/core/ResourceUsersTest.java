package io.jroce.rnic.core;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.jroce.verbs.ResourceBusyException;
import io.jroce.verbs.ResourceClosedException;

/** The shared lifecycle: close refused while used, closing twice does nothing, closed refuses verbs. */
class ResourceUsersTest {
    private final ResourceUsers users = new ResourceUsers("thing is destroyed");

    @Test
    void closeIsRefusedWhileUsedAndNamesHowMany() {
        users.add();
        users.add();
        ResourceBusyException e = assertThrows(ResourceBusyException.class,
            () -> users.mayClose(n -> "thing is still used by " + n + " user(s)"));
        assertEquals("thing is still used by 2 user(s)", e.getMessage());
        assertDoesNotThrow(users::ensureOpen, "a refused close leaves it open");
        users.remove();
        users.remove();
        assertTrue(users.mayClose(n -> "unused"));
    }

    @Test
    void closedRefusesVerbsAndClosingAgainDoesNothing() {
        assertTrue(users.mayClose(n -> "unused"));
        users.markClosed();
        ResourceClosedException e = assertThrows(ResourceClosedException.class, users::ensureOpen);
        assertEquals("thing is destroyed", e.getMessage());
        assertFalse(users.mayClose(n -> "unused"), "already closed");
    }

    /**
     * The race the attacker review named: a QP attaching to a CQ (or an MR to a PD) between the
     * owner's finding no users and its closing. Once close has found no users, no user attaches.
     */
    @Test
    void noUserAttachesOnceCloseFoundNone() {
        assertTrue(users.mayClose(n -> "unused"));
        ResourceClosedException e = assertThrows(ResourceClosedException.class, users::add);
        assertEquals("thing is destroyed", e.getMessage());
        users.markClosed();
        assertThrows(ResourceClosedException.class, users::add);
    }

    @Test
    void anAbortedCloseLetsUsersAttachAgain() {
        assertTrue(users.mayClose(n -> "unused"));
        users.abortClose(); // e.g. the CQ's channel refused to let it go
        assertDoesNotThrow(users::add);
        assertThrows(ResourceBusyException.class, () -> users.mayClose(n -> "used"));
    }
}
