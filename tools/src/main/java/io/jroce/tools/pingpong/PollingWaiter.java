package io.jroce.tools.pingpong;

import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.WorkCompletion;
import java.util.concurrent.TimeUnit;

/**
 * The default: poll until something is there. The tools spin on ibv_poll_cq; this spins
 * briefly, then sleeps in {@link CompletionQueue#pollBlocking}. jroce's RNIC runs on a JVM thread
 * of the same machine, and a side that spins without end takes the CPU that the RNICs need to
 * make progress (two jroce sides on a two-core machine would crawl).
 */
final class PollingWaiter implements CompletionWaiter {
    /** Polls before sleeping: enough to catch a completion that is microseconds away. */
    private static final int SPINS = 200;
    /** How long one sleep lasts when no timeout is set, so that an interrupt is seen. */
    private static final long SLEEP_SLICE_NS = TimeUnit.SECONDS.toNanos(1);

    private final CompletionQueue cq;
    private final long timeoutNs;

    /** @param timeoutSeconds longest wait for one completion; 0 waits forever */
    PollingWaiter(CompletionQueue cq, int timeoutSeconds) {
        this.cq = cq;
        this.timeoutNs = TimeUnit.SECONDS.toNanos(timeoutSeconds);
    }

    @Override
    public int next(WorkCompletion[] wcs) throws PingpongException, InterruptedException {
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
            long wait = timeoutNs == 0 ? SLEEP_SLICE_NS : deadline - System.nanoTime();
            if (wait <= 0) {
                throw new PingpongException("no completion within " + TimeUnit.NANOSECONDS.toSeconds(timeoutNs)
                    + " s (--timeout): the peer stopped answering");
            }
            if (cq.pollBlocking(wcs[0], wait, TimeUnit.NANOSECONDS)) {
                int n = 1;
                while (n < wcs.length && cq.poll(wcs[n])) {
                    n++;
                }
                return n;
            }
        }
    }
}
