package io.jroce.tools.pingpong;

import io.jroce.verbs.Gid;
import java.io.PrintStream;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/** One run of {@code jroce rc_pingpong}, in the order of ibv_rc_pingpong's main(). */
final class PingpongRun {
    private final PingpongOptions options;
    private final PrintStream out;

    PingpongRun(PingpongOptions options, PrintStream out) {
        this.options = options;
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
            int lid = ctx.device().queryPort().lid(); // 0 on RoCE, whose link layer is Ethernet
            Gid gid = ctx.gid(options.sgidIndex());
            PingpongDest mine = new PingpongDest(lid, ctx.qpNum(), ThreadLocalRandom.current().nextInt(1 << 24), gid);
            out.println("  local address:  " + mine.describe());

            int timeoutMs = (int) TimeUnit.SECONDS.toMillis(options.timeoutSeconds());
            PingpongDest remote = options.isClient()
                ? TcpExchange.client(options.host(), options.tcpPort(), mine, timeoutMs)
                : TcpExchange.server(options.tcpPort(), mine, timeoutMs, dest -> ctx.connect(dest, mine.psn()));
            out.println("  remote address: " + remote.describe());
            if (options.isClient()) {
                ctx.connect(remote, mine.psn());
                if (options.flags().validate()) {
                    ctx.writeValidationPattern();
                }
            }

            CompletionWaiter waiter = options.flags().events()
                ? new EventWaiter(ctx, options.timeoutSeconds())
                : new PollingWaiter(ctx.cq(), options.timeoutSeconds());
            long elapsedNs = new PingpongLoop(ctx, waiter, options.iters(), options.rxDepth(), routs)
                .run(options.isClient());
            PingpongReport.print(out, options.size(), options.iters(), elapsedNs);
            if (!options.isClient() && options.flags().validate()) {
                for (int page : ctx.invalidPages()) {
                    out.printf("invalid data in page %d%n", page);
                }
            }
        }
    }
}
