package io.jroce.tools.perftest;

import io.jroce.verbs.QueuePair;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import java.util.Arrays;
import java.util.List;

/**
 * perftest's BW loops: run_iter_bw (the side that posts; with -b on SEND it also takes the peer's
 * messages, as run_iter_bi does) and run_iter_bw_server (the SEND server, which only receives).
 * At most tx_depth messages are outstanding per QP; every cq_mod-th message and the last are
 * signaled, and each completion counts cq_mod (a QP's last one, with perftest's fill_count, only
 * the messages it had left). Nothing is allocated per message.
 */
final class BwLoops {
    private final PerftestParams p;
    private final PerftestContext ctx;
    private final WorkRequests wrs;
    private final CqPoller sendPoller = new CqPoller();
    private final CqPoller recvPoller = new CqPoller();

    BwLoops(PerftestParams p, PerftestContext ctx, WorkRequests wrs) {
        this.p = p;
        this.ctx = ctx;
        this.wrs = wrs;
    }

    /** ctx_set_recv_wqes: rx_depth receives on each QP. */
    void postInitialReceives(long[] posted) throws PerftestException {
        List<QueuePair> qps = ctx.qps();
        for (int i = 0; i < qps.size(); i++) {
            for (int j = 0; j < p.rxDepth; j++) {
                wrs.aimRecv(i, j);
                try {
                    qps.get(i).postRecv(wrs.recv[i]);
                } catch (VerbsException e) {
                    throw new PerftestException("Couldn't post recv Qp = " + i + ": counter=" + j + " (" + e.getMessage()
                        + ")", e);
                }
            }
            posted[i] = p.rxDepth;
        }
    }

    /** run_iter_bw: posts and counts completions; returns the report print_report_bw computes. */
    BwReport run(long[] recvPosted) throws PerftestException, InterruptedException {
        int n = p.numQps;
        List<QueuePair> qps = ctx.qps();
        DurationClock clock = p.durationMode ? new DurationClock(p.duration, p.margin) : null;
        long itersPerQp = p.iters;
        long tot = clock != null ? 0 : itersPerQp * n;
        int slots = p.noPeak ? 1 : (int) tot;
        long[] tposted = new long[Math.max(1, slots)];
        long[] tcompleted = new long[Math.max(1, slots)];
        long[] scnt = new long[n];
        long[] ccnt = new long[n];
        long totscnt = 0;
        long totccnt = 0;
        long sampled = 0;
        // -b on SEND: this side also receives tot messages.
        boolean receives = p.duplex && p.verb == PerftestTool.Verb.SEND;
        long rcnt = 0;
        long[] rcntQp = new long[n];
        SteadyStateMarks marks = SteadyStateMarks.take(p.client);
        // perftest walks every QP after each poll, and only a QP with a completion since its last
        // visit can have room: the walk visits those, in index order, so it posts what perftest's
        // would, without a pass over 1,024 QPs for each completion.
        int[] ready = new int[n];
        boolean[] isReady = new boolean[n];
        int readyCount = n;
        for (int i = 0; i < n; i++) {
            ready[i] = i;
            isReady[i] = true;
        }
        if (clock != null) {
            clock.start();
        } else if (p.noPeak) {
            tposted[0] = System.nanoTime();
        }
        while (totscnt < tot || totccnt < tot || (receives && rcnt < tot)
            || (clock != null && clock.state() != DurationClock.State.END)) {
            for (int r = 0; r < readyCount; r++) {
                int i = ready[r];
                isReady[i] = false;
                while ((scnt[i] < itersPerQp || clock != null) && scnt[i] - ccnt[i] + 1 <= p.txDepth) {
                    if (clock != null && clock.state() == DurationClock.State.END) {
                        break;
                    }
                    boolean signaled = scnt[i] % p.cqMod == p.cqMod - 1 || (clock == null && scnt[i] == itersPerQp - 1);
                    wrs.aimSend(i, scnt[i]);
                    wrs.send[i].sendFlags(WorkRequests.flags(p, signaled));
                    marks.posting(totscnt);
                    if (!p.noPeak) {
                        tposted[(int) totscnt] = System.nanoTime();
                    }
                    try {
                        qps.get(i).postSend(wrs.send[i]);
                    } catch (VerbsException e) {
                        throw new PerftestException("Couldn't post send: qp " + i + " scnt=" + scnt[i] + " ("
                            + e.getMessage() + ")", e);
                    }
                    scnt[i]++;
                    totscnt++;
                }
            }
            readyCount = 0;
            if (totccnt < tot || (clock != null && totccnt < totscnt)) {
                int ne = sendPoller.poll(ctx.sendCq(), CqPoller.BATCH);
                WorkCompletion[] wcs = sendPoller.wcs();
                for (int k = 0; k < ne; k++) {
                    check(wcs[k], "client", "scnt", totscnt, "ccnt", totccnt);
                    int q = (int) wcs[k].wrId();
                    long fill = completed(ccnt[q], p.cqMod, itersPerQp, p.fillCount);
                    ccnt[q] += fill;
                    if (!isReady[q]) {
                        isReady[q] = true;
                        ready[readyCount++] = q;
                    }
                    totccnt += fill;
                    if (!p.noPeak) {
                        tcompleted[(int) Math.min(totccnt, tot) - 1] = System.nanoTime();
                    }
                    if (clock != null && clock.state() == DurationClock.State.SAMPLE) {
                        sampled += p.cqMod;
                    }
                }
                Arrays.sort(ready, 0, readyCount); // at most a poll's batch: an insertion sort, nothing allocated
            }
            if (receives && (rcnt < tot || clock != null)) {
                rcnt += receive(rcntQp, recvPosted, clock, null);
            }
        }
        if (clock != null) {
            tposted[0] = clock.sampleStart();
            tcompleted[0] = clock.sampleEnd();
            return BwReport.compute(p.size, sampled, tposted, tcompleted, true, p.cqMod, p.gbits());
        }
        if (p.noPeak) {
            tcompleted[0] = System.nanoTime();
        }
        return BwReport.compute(p.size, tot, tposted, tcompleted, p.noPeak, p.cqMod, p.gbits());
    }

    /**
     * What one signaled completion of a QP counts: cq_mod messages, or with perftest's fill_count
     * only those the QP still had ({@code iters - ccnt}) when that is fewer.
     */
    static long completed(long ccnt, int cqMod, long iters, boolean fillCount) {
        return fillCount && ccnt + cqMod > iters ? iters - ccnt : cqMod;
    }

    /** run_iter_bw_server: the SEND server counts receives and posts them again; the clock starts at the first. */
    BwReport serve(long[] recvPosted) throws PerftestException, InterruptedException {
        int n = p.numQps;
        DurationClock clock = p.durationMode ? new DurationClock(p.duration, p.margin) : null;
        long tot = p.iters * n;
        long[] rcntQp = new long[n];
        long[] first = {0};
        long rcnt = 0;
        long sampledBefore = 0;
        long[] sampled = {0};
        while (rcnt < tot || (clock != null && (first[0] == 0 || clock.state() != DurationClock.State.END))) {
            rcnt += receive(rcntQp, recvPosted, clock, first, sampled);
        }
        long end = System.nanoTime();
        if (clock != null) {
            return BwReport.compute(p.size, sampled[0] - sampledBefore, new long[] {clock.sampleStart()},
                new long[] {clock.sampleEnd()}, true, p.cqMod, p.gbits());
        }
        return BwReport.compute(p.size, tot, new long[] {first[0]}, new long[] {end}, true, p.cqMod, p.gbits());
    }

    private long receive(long[] rcntQp, long[] posted, DurationClock clock, long[] first)
        throws PerftestException, InterruptedException {
        return receive(rcntQp, posted, clock, first, null);
    }

    /** One poll of the receive CQ: counts what arrived, posts receives again while more are due. */
    private long receive(long[] rcntQp, long[] posted, DurationClock clock, long[] first, long[] sampled)
        throws PerftestException, InterruptedException {
        int ne = recvPoller.poll(ctx.recvCq(), CqPoller.BATCH);
        if (ne > 0 && first != null && first[0] == 0) {
            first[0] = System.nanoTime();
            if (clock != null) {
                clock.start();
            }
        }
        WorkCompletion[] wcs = recvPoller.wcs();
        for (int k = 0; k < ne; k++) {
            int id = (int) wcs[k].wrId();
            check(wcs[k], "server", "rcnt", rcntQp[id]);
            rcntQp[id]++;
            if (sampled != null && clock != null && clock.state() == DurationClock.State.SAMPLE) {
                sampled[0]++;
            }
            if (clock != null || posted[id] + 1 <= p.iters) {
                wrs.aimRecv(id, posted[id]);
                try {
                    ctx.qps().get(id).postRecv(wrs.recv[id]);
                } catch (VerbsException e) {
                    throw new PerftestException("Couldn't post recv Qp=" + id + " rcnt=" + rcntQp[id], e);
                }
                posted[id]++;
            }
        }
        return ne;
    }

    /** NOTIFY_COMP_ERROR_SEND / _RECV, with one of the loop's counters. */
    static void check(WorkCompletion wc, String side, String counter, long value) throws PerftestException {
        check(wc, side, counter, value, null, 0);
    }

    /**
     * NOTIFY_COMP_ERROR_SEND / _RECV, with two of the loop's counters ({@code second} null for
     * none): the message is built only for a failed completion, as the loop checks every one.
     */
    static void check(WorkCompletion wc, String side, String first, long firstValue, String second, long secondValue)
        throws PerftestException {
        if (wc.status() != WcStatus.SUCCESS) {
            String counters = first + "=" + firstValue + (second == null ? "" : ", " + second + "=" + secondValue);
            throw new PerftestException(" Completion with error at " + side + "\n Failed status " + wc.status().ordinal()
                + ": wr_id " + wc.wrId() + " syndrom 0x" + Integer.toHexString(wc.vendorErr()) + "\n " + counters
                + " (" + wc.status() + ")");
        }
    }
}
