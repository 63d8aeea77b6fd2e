package io.jroce.tools.perftest;

import io.jroce.tools.perftest.report.PerftestReportWriter;
import io.jroce.verbs.exchange.PerftestDest;
import java.io.PrintStream;
import java.util.List;

/**
 * What write_bw.c, read_bw.c and atomic_bw.c do once the QPs are connected. One way, the server
 * only waits: a handshake when the client is done, the client's report, which it prints, and the
 * closing handshake. The client runs each size, prints its row, then sends its report. With -b
 * both run, a handshake before each run, and each prints the sum of both directions.
 */
final class RdmaBwMain extends ConnectedMain {
    RdmaBwMain(PerftestParams p, PerftestContext ctx, PerftestComm comm, PerftestDest mine, PrintStream out) {
        super(p, ctx, comm, mine, out);
    }

    @Override
    void run(List<PerftestDest> remote, WorkRequests firstWrs) throws PerftestException, InterruptedException {
        out.println(PerftestReportWriter.LINE);
        out.println(PerftestReportWriter.bwHeader(p.gbits()));
        BwReport last = new BwReport(0, 0, 0, 0, 0);
        if (!p.client && !p.duplex) {
            comm.handShake(mine);
            BwReport theirs = comm.exchangeReports(last);
            out.print(theirs.row(p.gbits()));
            comm.closeConnection(mine);
            out.println(PerftestReportWriter.LINE);
            return;
        }
        WorkRequests wrs = firstWrs;
        for (long size : PerftestRun.sizes(p)) {
            if (p.runAll) {
                p.size = size;
                wrs = new WorkRequests(p, ctx, remote, comm.cycleBuffer(), comm.cacheLine());
            }
            if (p.duplex) {
                comm.handShake(mine);
            }
            last = new BwLoops(p, ctx, wrs).run(null);
            ctx.flushAfterLoop();
            if (p.duplex && p.runAll) {
                comm.handShake(mine);
            }
            if (!p.duplex) {
                out.print(last.row(p.gbits()));
            } else {
                BwReport theirs = comm.exchangeReports(last);
                out.print(last.plus(theirs).row(p.gbits()));
            }
            out.flush();
        }
        out.println(PerftestReportWriter.LINE);
        if (p.client && !p.duplex) {
            comm.handShake(mine);
            comm.exchangeReports(last);
        }
        comm.closeConnection(mine);
    }
}
