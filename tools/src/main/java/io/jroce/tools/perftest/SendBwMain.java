package io.jroce.tools.perftest;

import io.jroce.tools.perftest.report.PerftestReportWriter;
import io.jroce.verbs.exchange.PerftestDest;
import java.io.PrintStream;
import java.util.List;

/**
 * What send_bw.c does once the QPs are connected: for each size the server (and with -b both)
 * posts rx_depth receives, a handshake lets the client start, both count (the client its
 * completions, the server what it received) and print their own row; with -b they exchange
 * reports and print the sum. With -a a handshake ends each size; the closing handshake ends the
 * run.
 */
final class SendBwMain extends ConnectedMain {
    SendBwMain(PerftestParams p, PerftestContext ctx, PerftestComm comm, PerftestDest mine, PrintStream out) {
        super(p, ctx, comm, mine, out);
    }

    @Override
    void run(List<PerftestDest> remote, WorkRequests firstWrs) throws PerftestException, InterruptedException {
        out.println(PerftestReportWriter.LINE);
        out.println(PerftestReportWriter.bwHeader(p.gbits()));
        WorkRequests wrs = firstWrs;
        for (long size : PerftestRun.sizes(p)) {
            if (p.runAll) {
                p.size = size;
                wrs = new WorkRequests(p, ctx, remote, comm.cycleBuffer(), comm.cacheLine());
            }
            BwLoops loops = new BwLoops(p, ctx, wrs);
            long[] posted = new long[p.numQps];
            if (!p.client || p.duplex) {
                loops.postInitialReceives(posted);
            }
            comm.handShake(mine);
            BwReport report = p.client || p.duplex ? loops.run(posted) : loops.serve(posted);
            ctx.flushAfterLoop();
            if (!p.duplex || p.durationMode) {
                out.print(report.row(p.gbits()));
            }
            if (p.duplex && !p.durationMode) {
                BwReport theirs = comm.exchangeReports(report);
                out.print(report.plus(theirs).row(p.gbits()));
            }
            out.flush();
            if (p.runAll) {
                comm.handShake(mine); // send_bw.c: only the -a loop shakes hands after each size
            }
        }
        out.println(PerftestReportWriter.LINE);
        comm.closeConnection(mine);
    }
}
