package io.jroce.tools.pingpong;

import io.jroce.verbs.WorkCompletion;

/** How the ping-pong loop takes its next completions off the CQ: by polling, or on CQ events (-e). */
interface CompletionWaiter {
    /**
     * Fills {@code wcs} (two entries, as ibv_rc_pingpong's ibv_poll_cq(cq, 2, wc)) with what the CQ has.
     *
     * @return how many were filled: 1 or 2 when polling; 0 to 2 after an event
     * @throws PingpongException nothing happened within the timeout, or the CQ event was wrong
     */
    int next(WorkCompletion[] wcs) throws PingpongException, InterruptedException;
}
