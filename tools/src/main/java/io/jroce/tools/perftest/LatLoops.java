package io.jroce.tools.perftest;

import io.jroce.verbs.QueuePair;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.VerbsException;
import java.lang.invoke.VarHandle;
import io.jroce.verbs.RdmaDevice;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * perftest's latency loops: run_iter_lat_write (each side RDMA WRITEs a counter into the last byte
 * of the peer's buffer and waits for the peer's to show in its own; the server writes first),
 * run_iter_lat_send (the client sends first, each answers what it received) and run_iter_lat
 * (READ and atomics: only the client posts, one at a time). Each records the post time of every
 * iteration, or counts iterations over the sample of -D.
 *
 * <p>Each loop runs in slices of {@link #SLICE} iterations, a method call each. perftest's loops
 * run once, and HotSpot compiles a method that runs once only by on-stack replacement, after tens
 * of thousands of back edges: with a warm-up of 50,000 round trips, send_lat's loop was still
 * interpreted when the measured ones began, its C1 and C2 compilations came during them (the C2
 * one taking a pinned process's CPU for milliseconds, and a round trip with it), and most of the
 * measured round trips ran in C1's profiling code. Called once per slice, the loop's body is
 * compiled as an ordinary method, by C2 well before a warm-up of 50,000 round trips ends.
 */
final class LatLoops {
    /** Iterations per call of a loop's slice method. */
    static final int SLICE = 16;

    private final PerftestParams p;
    private final PerftestContext ctx;
    private final WorkRequests wrs;
    private final CqPoller sendPoller = new CqPoller();
    private final CqPoller recvPoller = new CqPoller();
    /** The post time of each iteration (tposted). */
    long[] tposted = new long[1];
    /** Iterations counted in the sample of -D. */
    long sampled;
    DurationClock clock;
    private SteadyStateMarks marks;
    /** The running loop's state, kept across its slices. */
    private QueuePair qp;
    private long iters;
    private long scnt;
    private long rcnt;
    private long ccnt;
    private boolean first;
    private int baseFlags;
    private ByteBuffer buf;
    private int postIndex;
    private int pollIndex;

    LatLoops(PerftestParams p, PerftestContext ctx, WorkRequests wrs) {
        this.p = p;
        this.ctx = ctx;
        this.wrs = wrs;
    }

    private void begin() {
        tposted = new long[(int) Math.max(1, p.runIters())];
        sampled = 0;
        clock = p.durationMode ? new DurationClock(p.duration, p.margin) : null;
        marks = SteadyStateMarks.take(p.client);
        iters = p.runIters();
        scnt = 0;
        rcnt = 0;
        ccnt = 0;
    }

    private boolean running() {
        return clock != null && clock.state() != DurationClock.State.END;
    }

    private boolean ended() {
        return clock != null && clock.state() == DurationClock.State.END;
    }

    private void count() {
        if (clock != null && clock.state() == DurationClock.State.SAMPLE) {
            sampled++;
        }
    }

    /** Posts operation {@code scnt} (counting from 1). */
    private void post(QueuePair qp, long scnt) throws PerftestException {
        marks.posting(scnt - 1);
        try {
            qp.postSend(wrs.send[0]);
        } catch (VerbsException e) {
            throw new PerftestException("Couldn't post send: scnt=" + scnt + " (" + e.getMessage() + ")", e);
        }
    }

    /** run_iter_lat_write. */
    void write() throws PerftestException, InterruptedException {
        begin();
        qp = ctx.qps().get(0);
        wrs.send[0].sendFlags(WorkRequests.flags(p, true));
        buf = ctx.mr().buffer();
        postIndex = (int) (ctx.sendAddress(0) - ctx.mr().address() + p.size - 1);
        pollIndex = (int) (ctx.recvAddress(0) - ctx.mr().address() + p.size - 1);
        if (clock != null) {
            clock.start();
        }
        while (writeSlice()) {
            // the next slice
        }
    }

    /** Up to {@link #SLICE} iterations of run_iter_lat_write's loop; false once it ended. */
    private boolean writeSlice() throws PerftestException, InterruptedException {
        for (int i = 0; i < SLICE; i++) {
            if (!(scnt < iters || ccnt < iters || rcnt < iters || running())) {
                return false;
            }
            if ((rcnt < iters || clock != null) && !(scnt < 1 && !p.client)) {
                rcnt++;
                awaitByte(buf, pollIndex, (byte) rcnt);
            }
            if (scnt < iters || clock != null) {
                if (clock == null) {
                    tposted[(int) scnt] = System.nanoTime();
                }
                buf.put(postIndex, (byte) ++scnt);
                post(qp, scnt);
            }
            if (ended()) {
                return false;
            }
            if (ccnt < iters || clock != null) {
                BwLoops.check(sendPoller.one(ctx.sendCq()), "client", "scnt", scnt, "ccnt", ccnt);
                ccnt++;
                count();
            }
        }
        return true;
    }

    /**
     * Spins on a byte the peer's RDMA WRITE sets, as perftest spins on a volatile char; in the
     * invoker progress mode each turn progresses the device, as nothing polls a CQ here.
     */
    private void awaitByte(ByteBuffer buf, int index, byte expected) throws InterruptedException {
        RdmaDevice device = ctx.device();
        int spins = 0;
        while (true) {
            VarHandle.acquireFence();
            if (buf.get(index) == expected || ended()) {
                return;
            }
            if (device.progress() > 0) {
                spins = 0;
                continue;
            }
            if (++spins > 64) {
                // Yield rather than sleep: the RNIC threads that deliver the byte need this CPU,
                // and a sleep would add the timer's tens of microseconds to every sample.
                if ((spins & 1023) == 0 && Thread.interrupted()) {
                    throw new InterruptedException();
                }
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /** run_iter_lat_send; the receives were posted before the handshake that precedes it. */
    void send() throws PerftestException, InterruptedException {
        begin();
        qp = ctx.qps().get(0);
        baseFlags = WorkRequests.flags(p, false);
        first = true;
        if (clock != null && p.client) {
            clock.start();
        }
        while (sendSlice()) {
            // the next slice
        }
    }

    /** Up to {@link #SLICE} iterations of run_iter_lat_send's loop; false once it ended. */
    private boolean sendSlice() throws PerftestException, InterruptedException {
        int sizePerQp = p.rxDepth;
        for (int i = 0; i < SLICE; i++) {
            if (!(scnt < iters || rcnt < iters || running())) {
                return false;
            }
            if ((rcnt < iters || clock != null) && !(scnt < 1 && p.client)) {
                boolean got;
                while (!(got = recvPoller.poll(ctx.recvCq(), 1) > 0) && !ended()) {
                    // wait for the peer's message
                }
                if (!got) {
                    return false;
                }
                if (first) {
                    first = false;
                    if (clock != null && !p.client) {
                        clock.start();
                    }
                }
                BwLoops.check(recvPoller.wcs()[0], "server", "rcnt", rcnt);
                rcnt++;
                count();
                if (clock != null || rcnt + sizePerQp <= iters) {
                    try {
                        qp.postRecv(wrs.recv[0]);
                    } catch (VerbsException e) {
                        throw new PerftestException("Couldn't post recv: rcnt=" + rcnt, e);
                    }
                }
            }
            if (scnt < iters || running()) {
                if (clock == null) {
                    tposted[(int) scnt] = System.nanoTime();
                }
                scnt++;
                boolean signaled = scnt % p.cqMod == 0 || (clock == null && scnt == iters);
                wrs.send[0].sendFlags(baseFlags | (signaled ? SendFlags.SIGNALED : 0));
                if (ended()) {
                    return false;
                }
                post(qp, scnt);
                if (signaled) {
                    BwLoops.check(sendPoller.one(ctx.sendCq()), "client", "scnt", scnt);
                }
            }
        }
        return true;
    }

    /** run_iter_lat: READ or atomic, one at a time, each waited for. */
    void readOrAtomic() throws PerftestException, InterruptedException {
        begin();
        qp = ctx.qps().get(0);
        wrs.send[0].sendFlags(SendFlags.SIGNALED);
        if (clock != null) {
            clock.start();
        }
        while (readOrAtomicSlice()) {
            // the next slice
        }
    }

    /** Up to {@link #SLICE} iterations of run_iter_lat's loop; false once it ended. */
    private boolean readOrAtomicSlice() throws PerftestException, InterruptedException {
        for (int i = 0; i < SLICE; i++) {
            if (!(scnt < iters || running())) {
                return false;
            }
            if (clock == null) {
                tposted[(int) scnt] = System.nanoTime();
            }
            scnt++;
            post(qp, scnt);
            if (ended()) {
                return false;
            }
            BwLoops.check(sendPoller.one(ctx.sendCq()), "client", "scnt", scnt);
            count();
        }
        return true;
    }

    /** The report row of the run just made. */
    String row() {
        boolean roundTrip = !p.verb.usesOutstandingReads();
        if (clock != null) {
            return LatencyReport.durationRow(p.size, sampled, clock.sampleEnd() - clock.sampleStart(), roundTrip);
        }
        // --warm-up's iterations are left out: the report is of the last -n posts
        long[] measured = p.warmUp == 0 ? tposted
            : Arrays.copyOfRange(tposted, (int) p.warmUp, (int) p.runIters());
        return LatencyReport.row(p.size, p.iters, measured, roundTrip);
    }
}
