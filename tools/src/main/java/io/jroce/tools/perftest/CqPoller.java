package io.jroce.tools.perftest;

import io.jroce.rnic.Configuration;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.WorkCompletion;
import java.util.concurrent.TimeUnit;

/**
 * ibv_poll_cq in a loop, as perftest spins on it, except that jroce's RNIC runs on threads of this
 * machine and a side that spins without end takes the CPU they need (on two cores, two perftest
 * processes have four busy threads). So it spins briefly, then yields the CPU between polls
 * (cheap when nothing else wants it, and no wake-up cost for the RNIC), and after a long quiet
 * spell sleeps in {@link CompletionQueue#pollBlocking}, which the RNIC thread wakes. Allocates
 * nothing per call.
 */
final class CqPoller {
    /** CTX_POLL_BATCH. */
    static final int BATCH = 16;
    private static final int SPINS = Configuration.perftestSpins();
    private static final int YIELDS = Configuration.perftestYields();
    private static final long SLEEP_NS = TimeUnit.MILLISECONDS.toNanos(5);

    private final WorkCompletion[] wcs = new WorkCompletion[BATCH];
    private int idle;

    CqPoller() {
        for (int i = 0; i < BATCH; i++) {
            wcs[i] = new WorkCompletion();
        }
    }

    WorkCompletion[] wcs() {
        return wcs;
    }

    /** Up to {@code max} completions into {@link #wcs()}; 0 when none came (after a short wait at most). */
    int poll(CompletionQueue cq, int max) throws InterruptedException {
        int n = max == BATCH ? cq.poll(wcs) : (cq.poll(wcs[0]) ? 1 : 0);
        if (n > 0) {
            idle = 0;
            return n;
        }
        if (++idle < SPINS) {
            Thread.onSpinWait();
            return 0;
        }
        if (idle < SPINS + YIELDS) {
            Thread.yield();
            return 0;
        }
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (cq.pollBlocking(wcs[0], SLEEP_NS, TimeUnit.NANOSECONDS)) {
            idle = 0;
            n = 1;
            while (n < max && cq.poll(wcs[n])) {
                n++;
            }
            return n;
        }
        return 0;
    }

    /** Exactly one completion, waiting as long as it takes. */
    WorkCompletion one(CompletionQueue cq) throws InterruptedException {
        while (poll(cq, 1) == 0) {
            // keep polling
        }
        return wcs[0];
    }
}
