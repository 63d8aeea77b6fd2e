package io.jroce.tools.pingpong;

import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;

/**
 * The ping-pong of ibv_rc_pingpong (main loop and parse_single_wc): the client posts the first
 * SEND; each side posts its next SEND once its previous SEND completed and a message arrived,
 * until it has sent and received {@code iters} messages. Receives are reposted up to rx_depth
 * whenever no more than one is left.
 */
final class PingpongLoop {
    private final PingpongContext ctx;
    private final CompletionWaiter waiter;
    private final int iters;
    private final int rxDepth;
    private final WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion()};
    private int routs;
    private int scnt;
    private int rcnt;
    private int pending;

    /** @param routs receives already posted */
    PingpongLoop(PingpongContext ctx, CompletionWaiter waiter, int iters, int rxDepth, int routs) {
        this.ctx = ctx;
        this.waiter = waiter;
        this.iters = iters;
        this.rxDepth = rxDepth;
        this.routs = routs;
    }

    /** Runs the exchange; returns its duration in nanoseconds, from the first send to the last completion. */
    long run(boolean client) throws PingpongException, InterruptedException {
        pending = PingpongContext.RECV_WRID;
        if (client) {
            if (!ctx.postSend()) {
                throw new PingpongException("Couldn't post send", ctx.lastPostFailure());
            }
            pending |= PingpongContext.SEND_WRID;
        }
        long start = System.nanoTime();
        while (rcnt < iters || scnt < iters) {
            int n = waiter.next(wcs);
            for (int i = 0; i < n; i++) {
                onCompletion(wcs[i]);
            }
        }
        return System.nanoTime() - start;
    }

    private void onCompletion(WorkCompletion wc) throws PingpongException {
        if (wc.status() != WcStatus.SUCCESS) {
            throw new PingpongException(String.format("Failed status %s (%d) for wr_id %d",
                WcStatusText.of(wc.status()), wc.status().ordinal(), (int) wc.wrId()));
        }
        switch ((int) wc.wrId()) {
            case PingpongContext.SEND_WRID -> scnt++;
            case PingpongContext.RECV_WRID -> {
                if (--routs <= 1) {
                    routs += ctx.postRecv(rxDepth - routs);
                    if (routs < rxDepth) {
                        throw new PingpongException("Couldn't post receive (" + routs + ")", ctx.lastPostFailure());
                    }
                }
                rcnt++;
            }
            default -> throw new PingpongException("Completion for unknown wr_id " + (int) wc.wrId());
        }
        pending &= ~(int) wc.wrId();
        if (scnt < iters && pending == 0) {
            if (!ctx.postSend()) {
                throw new PingpongException("Couldn't post send", ctx.lastPostFailure());
            }
            pending = PingpongContext.RECV_WRID | PingpongContext.SEND_WRID;
        }
    }
}
