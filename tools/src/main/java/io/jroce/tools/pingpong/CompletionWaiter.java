package io.jroce.tools.pingpong;

import io.jroce.verbs.WorkCompletion;

/** How the ping-pong loop takes its next completions off the CQ: by polling, or on CQ events (-e). */
interface CompletionWaiter {
    /**
     * Fills {@code wcs} (as ibv_poll_cq(cq, wcs.length, wc): two entries for rc, uc and ud,
     * num_qp + rx_depth for srq) with what the CQ has.
     *
     * @return how many were filled: at least 1 when polling; possibly 0 after an event
     * @throws PingpongException nothing happened within the timeout, or the CQ event was wrong
     */
    int next(WorkCompletion[] wcs) throws PingpongException, InterruptedException;
}
