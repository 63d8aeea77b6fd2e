package io.jroce.tools.pingpong;

import io.jroce.verbs.CompletionChannel;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.WorkCompletion;
import java.util.concurrent.TimeUnit;

/**
 * -e: sleep on CQ events as the tools do: wait for an event on the channel, check it names
 * our CQ, re-arm the CQ, then poll it once (which may find nothing: a completion that came before
 * the re-arm was already taken). Every event taken is acknowledged when the CQ is destroyed
 * ({@link PingpongContext#close()}), as ibv_ack_cq_events(cq, num_cq_events) at the end.
 */
final class EventWaiter implements CompletionWaiter {
    private static final long SLEEP_SLICE_NS = TimeUnit.SECONDS.toNanos(1);

    private final PingpongContext ctx;
    private final CompletionChannel channel;
    private final CompletionQueue cq;
    private final long timeoutNs;

    /** @param timeoutSeconds longest wait for one event; 0 waits forever */
    EventWaiter(PingpongContext ctx, int timeoutSeconds) {
        this.ctx = ctx;
        this.channel = ctx.channel();
        this.cq = ctx.cq();
        this.timeoutNs = TimeUnit.SECONDS.toNanos(timeoutSeconds);
    }

    @Override
    public int next(WorkCompletion[] wcs) throws PingpongException, InterruptedException {
        long deadline = System.nanoTime() + timeoutNs;
        CompletionQueue fired;
        while (true) {
            long wait = timeoutNs == 0 ? SLEEP_SLICE_NS : deadline - System.nanoTime();
            if (wait <= 0) {
                throw new PingpongException("no CQ event within " + TimeUnit.NANOSECONDS.toSeconds(timeoutNs)
                    + " s (--timeout): the peer stopped answering");
            }
            try {
                fired = channel.getEvent(wait, TimeUnit.NANOSECONDS);
            } catch (VerbsException e) {
                throw new PingpongException("Failed to get cq_event", e);
            }
            if (fired != null) {
                break;
            }
        }
        ctx.eventTaken();
        if (fired != cq) {
            throw new PingpongException("CQ event for unknown CQ " + fired);
        }
        try {
            cq.requestNotification(false);
        } catch (VerbsException e) {
            throw new PingpongException("Couldn't request CQ notification", e);
        }
        return cq.poll(wcs);
    }
}
