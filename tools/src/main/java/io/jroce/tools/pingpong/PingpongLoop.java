package io.jroce.tools.pingpong;

import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;

/**
 * The ping-pong of the tools' main loop (with ibv_rc_pingpong's parse_single_wc): the client posts
 * the first SEND on each QP; on each QP, a side posts its next SEND once its previous SEND there
 * completed and a message arrived there, while fewer than {@code iters} of its SENDs have
 * completed. It stops once it has sent and received {@code iters} messages. Receives are reposted
 * up to rx_depth whenever no more than one is left per QP.
 *
 * <p>With one QP (rc, uc, ud) that is the familiar ping-pong. srq_pingpong keeps a pending mask
 * per QP, finds the QP of each completion by its number (find_qp) and counts sends and receives
 * over all QPs together: {@code iters} is the total, not the number per QP its help promises, and
 * each side may send a few more than {@code iters} (the SENDs already under way when the count is
 * reached). The twin counts as it does.
 */
final class PingpongLoop {
    private final PingpongContext ctx;
    private final CompletionWaiter waiter;
    private final int iters;
    private final int rxDepth;
    /** Repost receives once this many or fewer are left: 1, or num_qp for srq_pingpong. */
    private final int refillAt;
    /** srq_pingpong looks the QP of each completion up; the others have one QP and do not. */
    private final boolean findQp;
    private final WorkCompletion[] wcs;
    private final int[] pending;
    private int routs;
    private int scnt;
    private int rcnt;

    /**
     * @param routs receives already posted
     * @param findQp whether completions are matched to QPs by number (srq_pingpong)
     */
    PingpongLoop(PingpongContext ctx, CompletionWaiter waiter, int iters, int rxDepth, int routs, boolean findQp) {
        this.ctx = ctx;
        this.waiter = waiter;
        this.iters = iters;
        this.rxDepth = rxDepth;
        this.routs = routs;
        this.findQp = findQp;
        int qps = ctx.qpCount();
        this.refillAt = qps;
        this.pending = new int[qps];
        // ibv_poll_cq(cq, 2, wc) with one QP; srq_pingpong polls num_qp + rx_depth at a time.
        this.wcs = new WorkCompletion[findQp ? qps + rxDepth : 2];
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
    }

    /** Runs the exchange; returns its duration in nanoseconds, from the first send to the last completion. */
    long run(boolean client) throws PingpongException, InterruptedException {
        for (int i = 0; i < pending.length; i++) {
            pending[i] = PingpongContext.RECV_WRID;
            if (client) {
                post(i);
            }
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

    /** How far the exchange got, for a failure's report. */
    String progress() {
        return String.format("%d of %d sends and %d of %d receives completed", scnt, iters, rcnt, iters);
    }

    private void onCompletion(WorkCompletion wc) throws PingpongException {
        if (wc.status() != WcStatus.SUCCESS) {
            throw new PingpongException(String.format("Failed status %s (%d) for wr_id %d",
                WcStatusText.of(wc.status()), wc.status().ordinal(), (int) wc.wrId()));
        }
        int qp = 0;
        if (findQp) {
            qp = ctx.qpIndex(wc.qpNum());
            if (qp < 0) {
                throw new PingpongException(String.format("Couldn't find QPN %06x", wc.qpNum()));
            }
        }
        switch ((int) wc.wrId()) {
            case PingpongContext.SEND_WRID -> scnt++;
            case PingpongContext.RECV_WRID -> {
                if (--routs <= refillAt) {
                    routs += ctx.postRecv(rxDepth - routs);
                    if (routs < rxDepth) {
                        throw new PingpongException("Couldn't post receive (" + routs + ")", ctx.lastPostFailure());
                    }
                }
                rcnt++;
            }
            default -> throw new PingpongException("Completion for unknown wr_id " + (int) wc.wrId());
        }
        pending[qp] &= ~(int) wc.wrId();
        if (scnt < iters && pending[qp] == 0) {
            post(qp);
        }
    }

    private void post(int qp) throws PingpongException {
        if (!ctx.postSend(qp)) {
            throw new PingpongException("Couldn't post send", ctx.lastPostFailure());
        }
        pending[qp] = PingpongContext.RECV_WRID | PingpongContext.SEND_WRID;
    }
}
