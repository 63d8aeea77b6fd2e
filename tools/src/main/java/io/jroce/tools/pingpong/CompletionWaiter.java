package io.jroce.tools.pingpong;

import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.WorkCompletion;
import java.util.concurrent.TimeUnit;

/**
 * Takes the next completions off the CQ for the ping-pong loop, up to two at a time as
 * ibv_rc_pingpong's ibv_poll_cq(cq, 2, wc) does. ibv_rc_pingpong spins on the CQ; this spins
 * briefly, then sleeps in {@link CompletionQueue#pollBlocking}: jroce's RNIC runs on a JVM
 * thread of the same machine, and a peer that spins without end would take the CPU that both
 * RNICs need to make progress (two jroce sides on a two-core machine would crawl).
 */
final class CompletionWaiter {
    /** Polls before sleeping: enough to catch a completion that is microseconds away. */
    private static final int SPINS = 200;
    /** How long one sleep lasts when no timeout is set, so that an interrupt is seen. */
    private static final long SLEEP_SLICE_MS = 1000;

    private final CompletionQueue cq;
    private final long timeoutNs;

    /** @param timeoutSeconds longest wait for one completion; 0 waits forever */
    CompletionWaiter(CompletionQueue cq, int timeoutSeconds) {
        this.cq = cq;
        this.timeoutNs = TimeUnit.SECONDS.toNanos(timeoutSeconds);
    }

    /**
     * Fills {@code wcs} (two entries) with at least one completion.
     *
     * @return how many were filled, 1 or 2
     * @throws PingpongException no completion arrived within the timeout
     */
    int next(WorkCompletion[] wcs) throws PingpongException, InterruptedException {
        for (int i = 0; i < SPINS; i++) {
            int n = cq.poll(wcs);
            if (n > 0) {
                return n;
            }
            Thread.onSpinWait();
        }
        long deadline = System.nanoTime() + timeoutNs;
        while (true) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            long wait = timeoutNs == 0 ? TimeUnit.MILLISECONDS.toNanos(SLEEP_SLICE_MS) : deadline - System.nanoTime();
            if (wait <= 0) {
                throw new PingpongException("no completion within " + TimeUnit.NANOSECONDS.toSeconds(timeoutNs)
                    + " s (--timeout): the peer stopped answering");
            }
            if (cq.pollBlocking(wcs[0], wait, TimeUnit.NANOSECONDS)) {
                return cq.poll(wcs[1]) ? 2 : 1;
            }
        }
    }
}
