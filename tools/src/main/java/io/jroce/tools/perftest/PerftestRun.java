package io.jroce.tools.perftest;

import io.jroce.verbs.Gid;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.QpType;
import io.jroce.verbs.exchange.PerftestDest;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * One run of a perftest twin, in the order of the tool's main(): open the device, connect over TCP
 * (with -R: the control QP through the RDMA CM), exchange versions, page and cache line sizes and
 * the MTU, create the resources (with -R: connect the QPs through the RDMA CM, {@link
 * CmQpConnections}), print the test information, exchange the QPs' keys (the sequence of handshakes
 * differs between the tools, and the peer counts on it), connect the QPs (not with -R), run,
 * report, close.
 */
final class PerftestRun {
    private final PerftestParams p;
    private final PrintStream out;
    private final PrintStream err;

    PerftestRun(PerftestParams p, PrintStream out, PrintStream err) {
        this.p = p;
        this.out = out;
        this.err = err;
    }

    void run() throws PerftestException, InterruptedException {
        try (PerftestContext ctx = PerftestContext.open(p)) {
            p.applyDevice(ctx.device().queryDevice().maxQpRdAtom(), ctx.device().queryPort().activeMtu(), out, err);
            if (!p.client) {
                out.println();
                out.println("************************************");
                out.println("* Waiting for client to connect... *");
                out.println("************************************");
                out.flush();
            }
            try (PerftestComm comm = openComm(ctx)) {
                comm.exchangeVersions();
                comm.exchangeSysData();
                p.mtu = Mtu.fromEnum(comm.exchangeMtu(p.mtu.enumValue()));
                p.checkUdSize(err);
                CmQpConnections cm = null;
                try {
                    if (p.rdmaCm) {
                        InetSocketAddress local = p.client ? localAddress(ctx, 0) : wildcard();
                        cm = CmQpConnections.connect(p, ctx, comm, local, p.client ? serverAddress() : null,
                            comm.cycleBuffer(), comm.cacheLine(), out, err);
                    } else {
                        ctx.init(comm.cycleBuffer(), comm.cacheLine(), out);
                    }
                    Gid gid = gid(ctx);
                    comm.gidIndex(p.gidIndex);
                    List<PerftestDest> mine = new ArrayList<>();
                    for (int i = 0; i < p.numQps; i++) {
                        mine.add(ctx.localDest(i, gid));
                    }
                    TestInfo.print(out, p);
                    List<PerftestDest> remote = connect(comm, ctx, mine);
                    WorkRequests wrs = new WorkRequests(p, ctx, remote, comm.cycleBuffer(), comm.cacheLine());
                    ConnectedMain main = !p.tool.bandwidth() ? new LatMain(p, ctx, comm, mine.get(0), out)
                        : p.verb == PerftestTool.Verb.SEND ? new SendBwMain(p, ctx, comm, mine.get(0), out)
                        : new RdmaBwMain(p, ctx, comm, mine.get(0), out);
                    main.run(remote, wrs);
                    out.flush();
                } finally {
                    if (cm != null) {
                        cm.close(); // destroy_ctx of the test's context: its RDMA CM part first
                    }
                }
            }
        }
    }

    /**
     * establish_connection: TCP to -p, or with -R the control QP through the RDMA CM, from (client)
     * the device's address of the GID index, or on (server) the wildcard as perftest binds it.
     */
    private PerftestComm openComm(PerftestContext ctx) throws PerftestException, InterruptedException {
        if (!p.rdmaCm) {
            return p.client ? PerftestComm.connect(p.options.host(), p.options.tcpPort())
                : PerftestComm.accept(p.options.tcpPort());
        }
        OobChannel channel = p.client
            ? CmControlChannel.connect(localAddress(ctx, 0), serverAddress(), CmQpConnections.RETRY_COUNT,
                p.options.tos())
            : CmControlChannel.accept(wildcard(), p.numQps, CmQpConnections.RETRY_COUNT);
        return new PerftestComm(channel, p.client);
    }

    private Gid gid(PerftestContext ctx) throws PerftestException {
        if (p.gidIndex >= ctx.device().gids().size()) {
            throw new PerftestException(" Unable to set up socket connection (GID index " + p.gidIndex
                + " does not exist: the device has one GID per --bind address)");
        }
        return ctx.device().gids().get(p.gidIndex);
    }

    /**
     * Where a server listens (rdma_server_connect, rdma_cm_server_connection): getaddrinfo(NULL, -p,
     * AI_PASSIVE, AF_INET), i.e. 0.0.0.0: requests to any IPv4 address of the twin's device (the
     * --bind addresses) are taken.
     */
    private InetSocketAddress wildcard() {
        return new InetSocketAddress("0.0.0.0", p.options.tcpPort()); // a literal: no name lookup
    }

    private InetSocketAddress localAddress(PerftestContext ctx, int port) throws PerftestException {
        return new InetSocketAddress(gid(ctx).toInetAddress(), port);
    }

    /** The server's first IPv4 address (rdma_client_connect resolves with AF_INET) and -p. */
    private InetSocketAddress serverAddress() throws PerftestException {
        InetAddress a = Ipv4AddrInfo.resolve(p.options.host(), p.options.tcpPort(), "Problem in resolving basic address"
            + " and port\n Unable to perform rdma_client function\n Unable to init the socket connection").get(0);
        return new InetSocketAddress(a, p.options.tcpPort());
    }

    /**
     * The handshakes around ctx_connect, each tool's own: write/read/atomic BW exchange keys,
     * connect, exchange them again (printing the peer's) and add a barrier; send BW and send_lat put
     * the barrier before printing; write/read/atomic latency start with one more handshake.
     */
    private List<PerftestDest> connect(PerftestComm comm, PerftestContext ctx, List<PerftestDest> mine)
        throws PerftestException {
        boolean sendFamily = p.verb == PerftestTool.Verb.SEND;
        boolean latRdma = !p.tool.bandwidth() && !sendFamily;
        if (latRdma) {
            comm.handShake(mine.get(0));
        }
        List<PerftestDest> remote = new ArrayList<>();
        for (PerftestDest d : mine) {
            remote.add(comm.handShake(d));
        }
        if (!p.rdmaCm && mine.get(0).gid().isIpv4Mapped() != remote.get(0).gid().isIpv4Mapped()) {
            throw new PerftestException("\n Found Incompatibility issue with GID types.\n Please Try to use a different"
                + " IP version.\n");
        }
        if (!p.rdmaCm) {
            ctx.connect(remote, mine); // with -R the RDMA CM connected them
        }
        if (sendFamily) {
            comm.handShake(mine.get(0));
        }
        // ctx_print_pingpong_data switches on the communication's verb, which with -R is the control
        // QP's SEND: no OUT, RKey or VAddr then
        PerftestTool.Verb printed = p.rdmaCm ? PerftestTool.Verb.SEND : p.verb;
        for (PerftestDest d : mine) {
            out.println(DestLines.describe(d, "local", printed));
        }
        for (PerftestDest d : mine) {
            out.println(DestLines.describe(comm.handShake(d), "remote", printed));
        }
        if (!sendFamily) {
            comm.handShake(mine.get(0));
        }
        return remote;
    }

    /** The sizes of the run: -s, or with -a 2 to 2^23 (UD SEND: to the MTU). */
    static List<Long> sizes(PerftestParams p) {
        if (!p.runAll) {
            return List.of(p.size);
        }
        long max = p.verb == PerftestTool.Verb.SEND && p.qpType == QpType.UD ? p.mtu.bytes() : PerftestParams.MAX_SIZE;
        List<Long> sizes = new ArrayList<>();
        for (long s = 2; s <= max; s <<= 1) {
            sizes.add(s);
        }
        return sizes;
    }
}
