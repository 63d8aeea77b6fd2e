package io.jroce.tools.pingpong;

import io.jroce.verbs.Gid;
import io.jroce.verbs.exchange.PingpongDest;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/** One run of a ping-pong twin, in the order of the tool's main(). */
final class PingpongRun {
    private final PingpongOptions options;
    private final PingpongTool tool;
    private final PrintStream out;

    PingpongRun(PingpongOptions options, PrintStream out) {
        this.options = options;
        this.tool = options.tool();
        this.out = out;
    }

    void run() throws PingpongException, InterruptedException {
        try (PingpongContext ctx = PingpongContext.open(options)) {
            int routs = ctx.postRecv(options.rxDepth());
            if (routs < options.rxDepth()) {
                throw new PingpongException("Couldn't post receive (" + routs + ")", ctx.lastPostFailure());
            }
            if (options.flags().events()) {
                ctx.requestNotification();
            }
            List<PingpongDest> mine = localAddresses(ctx);

            int timeoutMs = (int) TimeUnit.SECONDS.toMillis(options.timeoutSeconds());
            List<PingpongDest> remote = options.isClient()
                ? TcpExchange.client(options.host(), options.tcpPort(), mine, timeoutMs)
                : TcpExchange.server(options.tcpPort(), mine, timeoutMs, dests -> ctx.connect(dests, mine));
            for (int i = 0; i < ctx.qpCount(); i++) {
                out.println(PingpongTool.remoteLine(remote.get(i)));
            }
            if (options.isClient()) {
                ctx.connect(remote, mine);
                if (options.flags().validate()) {
                    ctx.writeValidationPattern();
                }
            }

            CompletionWaiter waiter = options.flags().events()
                ? new EventWaiter(ctx, options.timeoutSeconds())
                : new PollingWaiter(ctx.cq(), options.timeoutSeconds());
            PingpongLoop loop = new PingpongLoop(ctx, waiter, options.iters(), options.rxDepth(), routs,
                tool.sharedReceiveQueue());
            long elapsedNs;
            try {
                elapsedNs = loop.run(options.isClient());
            } catch (PingpongException e) {
                throw e.withReport(StallReport.lines(loop.progress(), ctx.qps(), ctx.device().counters()));
            }
            PingpongReport.print(out, options.size(), options.iters(), elapsedNs);
            if (!options.isClient() && options.flags().validate()) {
                for (int page : ctx.invalidPages()) {
                    out.printf("invalid data in page %d%n", page);
                }
            }
        }
    }

    /**
     * Each QP's address, printed as the tool prints it, then (srq_pingpong) all-zero entries up to
     * the number of messages the tool exchanges. The LID is 0 on RoCE, whose link layer is Ethernet.
     */
    private List<PingpongDest> localAddresses(PingpongContext ctx) throws PingpongException {
        int lid = ctx.device().queryPort().lid();
        Gid gid = ctx.gid(options.sgidIndex());
        List<PingpongDest> mine = new ArrayList<>(tool.exchangedMessages());
        for (int i = 0; i < ctx.qpCount(); i++) {
            PingpongDest d = new PingpongDest(lid, ctx.qpNum(i), ThreadLocalRandom.current().nextInt(1 << 24), gid);
            out.println(tool.localLine(d));
            mine.add(d);
        }
        while (mine.size() < tool.exchangedMessages()) {
            mine.add(PingpongTool.unusedDest());
        }
        return List.copyOf(mine);
    }
}
