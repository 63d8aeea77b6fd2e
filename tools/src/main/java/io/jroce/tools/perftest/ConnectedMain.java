package io.jroce.tools.perftest;

import io.jroce.verbs.exchange.PerftestDest;
import java.io.PrintStream;
import java.util.List;

/**
 * What a perftest main does once its QPs are connected ({@link RdmaBwMain}, {@link SendBwMain},
 * {@link LatMain}): the parameters, the resources, the TCP channel to the peer, this side's
 * address (handshakes carry it) and where the report goes.
 */
abstract class ConnectedMain {
    final PerftestParams p;
    final PerftestContext ctx;
    final PerftestComm comm;
    final PerftestDest mine;
    final PrintStream out;

    ConnectedMain(PerftestParams p, PerftestContext ctx, PerftestComm comm, PerftestDest mine, PrintStream out) {
        this.p = p;
        this.ctx = ctx;
        this.comm = comm;
        this.mine = mine;
        this.out = out;
    }

    /** Runs the test with the peer's addresses and the work requests built for the first size. */
    abstract void run(List<PerftestDest> remote, WorkRequests firstWrs) throws PerftestException, InterruptedException;
}
