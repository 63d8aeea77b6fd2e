package io.jroce.tools.perftest;

import io.jroce.tools.perftest.report.PerftestReportWriter;
import io.jroce.verbs.exchange.PerftestDest;
import java.io.PrintStream;
import java.util.List;

/**
 * What the *_lat.c mains do once the QPs are connected. write_lat: both sides run and print, and
 * close without a word. read_lat and atomic_lat: only the client runs; the server closes at once.
 * send_lat: for each size both post their receives, a handshake, both run and print.
 */
final class LatMain extends ConnectedMain {
    LatMain(PerftestParams p, PerftestContext ctx, PerftestComm comm, PerftestDest mine, PrintStream out) {
        super(p, ctx, comm, mine, out);
    }

    @Override
    void run(List<PerftestDest> remote, WorkRequests firstWrs) throws PerftestException, InterruptedException {
        boolean readOrAtomic = p.verb.usesOutstandingReads();
        if (readOrAtomic && !p.client) {
            comm.closeConnection(mine);
            out.println(PerftestReportWriter.LINE);
            return;
        }
        out.println(PerftestReportWriter.LINE);
        out.println(PerftestReportWriter.latencyHeader(p.durationMode));
        WorkRequests wrs = firstWrs;
        for (long size : PerftestRun.sizes(p)) {
            if (p.runAll) {
                p.size = size;
                wrs = new WorkRequests(p, ctx, remote, comm.cycleBuffer(), comm.cacheLine());
            }
            LatLoops loops = new LatLoops(p, ctx, wrs);
            switch (p.verb) {
                case WRITE -> loops.write();
                case SEND -> {
                    new BwLoops(p, ctx, wrs).postInitialReceives(new long[p.numQps]);
                    comm.handShake(mine);
                    loops.send();
                }
                default -> loops.readOrAtomic();
            }
            ctx.flushAfterLoop();
            out.print(loops.row());
            out.flush();
        }
        if (p.verb == PerftestTool.Verb.WRITE) {
            out.println(PerftestReportWriter.LINE);
            return;
        }
        if (p.verb == PerftestTool.Verb.SEND) {
            out.println(PerftestReportWriter.LINE);
            comm.closeConnection(mine);
        } else {
            comm.closeConnection(mine);
            out.println(PerftestReportWriter.LINE);
        }
    }
}
