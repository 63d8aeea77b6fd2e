package io.jroce.stack.transport;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The hint's window, driven with the I/O thread's time by hand. */
class PollingHintTest {
    private static final long T0 = 5_000_000_000L;

    @Test
    void noEmptyPollMeansNotPolling() {
        PollingHint hint = new PollingHint();
        assertFalse(hint.applicationPolling(T0));
        assertFalse(hint.applicationPolling(0));
        assertFalse(hint.applicationPolling(-T0));
    }

    @Test
    void anEmptyPollOpensTheWindowFromWhenTheIoThreadSeesIt() {
        PollingHint hint = new PollingHint();
        hint.emptyPoll();
        assertTrue(hint.applicationPolling(T0));
        assertTrue(hint.applicationPolling(T0 + PollingHint.WINDOW_NS - 1));
        assertFalse(hint.applicationPolling(T0 + PollingHint.WINDOW_NS));
    }

    @Test
    void everyLaterEmptyPollExtendsTheWindow() {
        PollingHint hint = new PollingHint();
        hint.emptyPoll();
        assertTrue(hint.applicationPolling(T0));
        hint.emptyPoll();
        long later = T0 + PollingHint.WINDOW_NS - 10;
        assertTrue(hint.applicationPolling(later));
        assertTrue(hint.applicationPolling(later + PollingHint.WINDOW_NS - 1));
        assertFalse(hint.applicationPolling(later + PollingHint.WINDOW_NS));
        assertFalse(hint.applicationPolling(later + 10 * PollingHint.WINDOW_NS), "no poll since: stays closed");
    }

    @Test
    void alwaysSaysPolling() {
        PollingHint hint = PollingHint.always();
        assertTrue(hint.applicationPolling(T0));
        assertTrue(hint.applicationPolling(T0 + 1_000 * PollingHint.WINDOW_NS));
    }
}
