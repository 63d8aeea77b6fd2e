package io.jroce.rnic.cq;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Request Completion Notification (IBTA 11.4.2.2): what fires, and that it fires once. */
class CompletionArmingTest {
    private final CompletionArming arming = new CompletionArming();

    @Test
    void anUnarmedQueueNeverFires() {
        assertFalse(arming.armed());
        assertFalse(arming.fire(true, true));
        assertFalse(arming.fire(false, false));
    }

    @Test
    void armedForAnyCompletionTheNextOneFiresOnce() {
        arming.arm(false);
        assertTrue(arming.armed());
        assertTrue(arming.fire(false, true));
        assertFalse(arming.armed());
        assertFalse(arming.fire(true, false), "disarmed until armed again");
        arming.arm(false);
        assertTrue(arming.fire(false, true));
    }

    @Test
    void armedForSolicitedOnlyAPlainSuccessDoesNotFire() {
        arming.arm(true);
        assertFalse(arming.fire(false, true));
        assertTrue(arming.armed(), "still armed");
        assertTrue(arming.fire(true, true), "a solicited completion fires");
        assertFalse(arming.armed());
    }

    @Test
    void armedForSolicitedOnlyAnErrorFires() {
        arming.arm(true);
        assertTrue(arming.fire(false, false));
        assertFalse(arming.fire(false, false));
    }

    @Test
    void armingForAnyCompletionIsNotNarrowedBySolicitedOnly() {
        arming.arm(false);
        arming.arm(true);
        assertTrue(arming.fire(false, true), "still armed for any completion");
    }

    @Test
    void solicitedOnlyIsWidenedToAnyCompletion() {
        arming.arm(true);
        arming.arm(false);
        assertTrue(arming.fire(false, true));
    }

    @Test
    void armingTwiceStillFiresOnce() {
        arming.arm(false);
        arming.arm(false);
        assertTrue(arming.fire(false, true));
        assertFalse(arming.fire(false, true));
    }
}
