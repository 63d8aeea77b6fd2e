package io.jroce.tools.perftest;

import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.Gid;
import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import io.jroce.verbs.cm.ConnParam;
import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaCmId;
import io.jroce.verbs.cm.RdmaCmOption;
import io.jroce.verbs.cm.RdmaEventChannel;
import io.jroce.verbs.cm.RdmaUdParam;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The test's QPs with -R (create_rdma_cm_connection, perftest_communication.c): each QP has a CM ID
 * of its own, connected to the same port as the control connection (-p), whose listener the server
 * destroyed. Between two zeroed handshakes on the control QP, the client resolves every ID at once
 * and, as each route resolves, creates the test's resources (the first time: ctx_init), the ID's
 * QP and connects (private data none, responder resources and initiator depth the outstanding
 * reads for READ and atomics, else 0, retry and RNR retry counts 7); it waits for every
 * ESTABLISHED. The server listens (backlog = QPs) and accepts one CONNECT_REQUEST per QP without
 * waiting for ESTABLISHED. At the end (destroy_ctx) the client disconnects every connection and
 * waits for its DISCONNECTED; the server disconnects its last one and destroys the IDs, which
 * answers the others.
 */
final class CmQpConnections implements AutoCloseable {
    /** rdma_cm_client_connection's attempts and the pause between them. */
    static final int MAX_RETRIES = 10;
    static final long RETRY_DELAY_MS = 100;
    /** perftest's default --retry_count (DEF_RETRY_COUNT), which it also gives as the RNR retry count. */
    static final int RETRY_COUNT = 7;
    /** MIN_RNR_TIMER, which the server sets again on an accepted RC QP. */
    static final int MIN_RNR_TIMER = 12;
    private static final long CM_SLICE_MS = 200;
    /** How long the client waits for its DISCONNECTEDs: perftest waits forever, a twin gives up. */
    private static final long DISCONNECT_GUARD_MS = 30_000;
    /** How long a UD side waits for the peer's QP number: perftest waits forever, a twin gives up. */
    private static final long UD_EXCHANGE_GUARD_MS = 30_000;
    private static final long PARK_NS = 50_000;

    private final PerftestParams p;
    private final PerftestContext ctx;
    private final PrintStream out;
    private final PrintStream err;
    private final int cycleBuffer;
    private final int cacheLine;
    private RdmaEventChannel channel;
    /** The server's listener, from before the first handshake until every QP's request is accepted. */
    private RdmaCmId listener;
    /** The client's IDs (rdma_cm_allocate_nodes). */
    private final List<RdmaCmId> nodes = new ArrayList<>();
    /** The connected IDs and their QPs, in connection order (the test's QP order). */
    private final List<RdmaCmId> connected = new ArrayList<>();
    private final List<QueuePair> qps = new ArrayList<>();
    private int disconnectsLeft;

    private CmQpConnections(PerftestParams p, PerftestContext ctx, int cycleBuffer, int cacheLine, PrintStream out,
                            PrintStream err) {
        this.p = p;
        this.ctx = ctx;
        this.cycleBuffer = cycleBuffer;
        this.cacheLine = cacheLine;
        this.out = out;
        this.err = err;
    }

    /**
     * create_rdma_cm_connection: a client connects from {@code local} (port 0) to {@code server}; a
     * server ({@code server} null) listens on {@code local}. The QPs are then the context's.
     */
    static CmQpConnections connect(PerftestParams p, PerftestContext ctx, PerftestComm comm, InetSocketAddress local,
                                   InetSocketAddress server, int cycleBuffer, int cacheLine, PrintStream out,
                                   PrintStream err) throws PerftestException, InterruptedException {
        CmQpConnections c = new CmQpConnections(p, ctx, cycleBuffer, cacheLine, out, err);
        try {
            c.channel = RdmaCm.createEventChannel();
            RdmaCmId listener = null;
            if (server != null) {
                c.allocateNodes();
            } else {
                // perftest's server calls rdma_listen only after this handshake, so its client's first
                // connect races it (a missed REQ fails the attempt, and a sibling ID's request may already
                // be accepted by a server that counts requests). Listening first is the same on the wire
                // and leaves no race: the client connects only after the handshake.
                listener = c.listen(local);
            }
            try {
                comm.zeroHandShake();
            } catch (PerftestException e) {
                throw new PerftestException(e.getMessage() + "\nFailed to sync between client and server before"
                    + " creating RDMA CM connection." + FAILED, e);
            }
            if (server != null) {
                c.clientConnection(local, server);
            } else {
                c.serverConnection(listener);
            }
            for (QueuePair qp : c.qps) {
                ctx.addQp(qp);
            }
            try {
                comm.zeroHandShake();
            } catch (PerftestException e) {
                throw new PerftestException(e.getMessage() + "\nFailed to sync between client and server after"
                    + " creating RDMA CM connection." + FAILED, e);
            }
            return c;
        } catch (PerftestException | InterruptedException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private static final String FAILED = "\nFailed to create RDMA CM connection with resources.";

    private void allocateNodes() {
        for (int i = 0; i < p.numQps; i++) {
            nodes.add(channel.createId(portSpace()));
        }
    }

    /** rdma_cm_allocate_nodes: RDMA_PS_UDP for UD (its IDs resolve the service with SIDR), else RDMA_PS_TCP. */
    private PortSpace portSpace() {
        return p.qpType == QpType.UD ? PortSpace.UDP : PortSpace.TCP;
    }

    /**
     * Whether the UD peers tell each other their QPs (send_lat, and send_bw with -b): the server's SIDR_REP
     * names its QP, the client's QP goes in the immediate data of one SEND (rdma_cm_send_ud_connection_parameters).
     */
    private boolean udExchange() {
        return p.qpType == QpType.UD && (!p.tool.bandwidth() || p.duplex);
    }

    /** rdma_cm_client_connection: up to 10 attempts 100 ms apart, each with new IDs after the first. */
    private void clientConnection(InetSocketAddress source, InetSocketAddress server)
        throws PerftestException, InterruptedException {
        for (int attempt = 0; attempt < MAX_RETRIES; attempt++) {
            try {
                clientAttempt(source, server);
                return;
            } catch (AttemptFailed e) {
                err.println(e.getMessage() + "\nFailed to connect RDMA CM events.");
                destroyAttempt();
                Thread.sleep(RETRY_DELAY_MS);
                channel = RdmaCm.createEventChannel();
                allocateNodes();
            }
        }
        throw new PerftestException("Failed to connect RDMA CM client, tried " + MAX_RETRIES + " times.\n"
            + "Failed to create RDMA CM connection." + FAILED);
    }

    /** _rdma_cm_client_connection and rdma_cm_connect_events until every QP is ESTABLISHED. */
    private void clientAttempt(InetSocketAddress source, InetSocketAddress server)
        throws AttemptFailed, PerftestException, InterruptedException {
        for (RdmaCmId id : nodes) {
            try {
                id.resolveAddr(source, server, CmControlChannel.RESOLVE_TIMEOUT_MS);
            } catch (VerbsException e) {
                throw new AttemptFailed("Failed to resolve RDMA CM address. (" + e.getMessage() + ")");
            }
        }
        int connectsLeft = p.numQps;
        // The first QP connects alone; the others once it is ESTABLISHED. perftest's server starts
        // listening only after its TCP handshake, so a client whose REQs are all in flight can have
        // the first refused (REJ 8) and a later one taken: the attempt then fails, and the REJ that
        // ends the taken one reaches a server that is creating its QP for it, which rdma_create_qp
        // refuses (EINVAL) and the server exits (docs/perftest-twins.md). One REQ first costs a
        // round trip; a refused one is retried with nothing else outstanding.
        List<RdmaCmId> held = new ArrayList<>();
        boolean firstEstablished = false;
        while (connectsLeft > 0) {
            RdmaCmEvent event = take();
            try {
                RdmaCmId id = event.id();
                switch (event.type()) {
                    case ADDR_RESOLVED -> {
                        // rdma_cm_address_handler: -T, then the route
                        if (p.options.tos() != PerftestOptions.DEF_TOS) {
                            try {
                                id.setOption(RdmaCmOption.TOS, p.options.tos());
                            } catch (VerbsException e) {
                                throw new AttemptFailed("Failed to set ToS(Type of Service) option for RDMA CM"
                                    + " connection.");
                            }
                        }
                        id.resolveRoute(CmControlChannel.RESOLVE_TIMEOUT_MS);
                    }
                    case ROUTE_RESOLVED -> {
                        qps.add(createQp(id));
                        if (firstEstablished || id == nodes.get(0)) {
                            id.connect(connParam());
                            connected.add(id);
                        } else {
                            held.add(id);
                        }
                    }
                    case ESTABLISHED -> {
                        if (p.qpType == QpType.UD) {
                            establishUd(event);
                        }
                        connectsLeft--;
                        disconnectsLeft++;
                        if (!firstEstablished) {
                            firstEstablished = true;
                            for (RdmaCmId h : held) {
                                h.connect(connParam());
                                connected.add(h);
                            }
                            held.clear();
                        }
                    }
                    case ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR, UNREACHABLE, REJECTED ->
                        throw new AttemptFailed(eventError(event));
                    case DISCONNECTED -> disconnectsLeft--;
                    default -> {
                        // DEVICE_REMOVAL and the rest: perftest goes on
                    }
                }
            } catch (VerbsException e) {
                throw new AttemptFailed(e.getMessage() + "\nFailed to handle RDMA CM event.");
            } finally {
                event.ack();
            }
        }
    }

    /** rdma_cm_server_connection's rdma_bind_addr and rdma_listen; the listener is closed by {@link #close} on failure. */
    private RdmaCmId listen(InetSocketAddress local) throws PerftestException {
        listener = channel.createId(portSpace());
        try {
            listener.bindAddr(local);
        } catch (VerbsException e) {
            throw new PerftestException("Failed to bind RDMA CM address on the server. (" + e.getMessage() + ")"
                + "\nFailed to create RDMA CM connection." + FAILED, e);
        }
        listener.listen(p.numQps);
        return listener;
    }

    /** rdma_cm_server_connection: accepts one request per QP on {@code listener}, then destroys it. */
    private void serverConnection(RdmaCmId listener) throws PerftestException, InterruptedException {
        try {
            int connectsLeft = p.numQps;
            while (connectsLeft > 0) {
                RdmaCmEvent event = take();
                try {
                    switch (event.type()) {
                        case CONNECT_REQUEST -> {
                            RdmaCmId id = event.id();
                            int index = connected.size();
                            QueuePair qp = createQp(id);
                            connected.add(id);
                            qps.add(qp);
                            if (udExchange()) {
                                qp.postRecv(new ReceiveWorkRequest().wrId(0).sgList(
                                    new ScatterGatherEntry(ctx.sendAddress(index), PerftestContext.GRH + 4,
                                        ctx.mr().lkey())));
                            }
                            id.accept(connParam());
                            if (p.qpType == QpType.RC) {
                                qp.modify(new QpAttributes().minRnrTimer(MIN_RNR_TIMER));
                            }
                            if (udExchange()) {
                                initializeUdPeer(index, qp);
                            }
                            connectsLeft--;
                        }
                        case ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR, UNREACHABLE, REJECTED ->
                            throw new PerftestException(eventError(event) + "\nFailed to create RDMA CM connection."
                                + FAILED);
                        default -> {
                            // ESTABLISHED and the rest: the server does not wait for them
                        }
                    }
                } catch (VerbsException e) {
                    throw new PerftestException(e.getMessage() + "\nFailed to handle RDMA CM event.\n"
                        + "Failed to create RDMA CM connection." + FAILED, e);
                } finally {
                    event.ack();
                }
            }
        } finally {
            listener.close();
            this.listener = null;
        }
    }

    /**
     * rdma_cm_establish_ud_connection: the SIDR_REP's address, QP and Q_Key become where the ID's QP
     * sends; with {@link #udExchange} the QP's number then goes to the server in one SEND with
     * immediate (4 bytes, wr_id 0), whose completion is awaited.
     */
    private void establishUd(RdmaCmEvent event) throws AttemptFailed {
        int index = connected.indexOf(event.id());
        RdmaUdParam ud = event.udParam();
        if (index < 0 || ud == null) {
            throw new AttemptFailed("Failed to create AH for RDMA CM connection.");
        }
        ctx.udPeer(index, ud.ahAttr(), ud.qpNum(), ud.qkey());
        if (!udExchange()) {
            return;
        }
        QueuePair qp = qps.get(index);
        UdPeer peer = ctx.udPeer(index);
        qp.postSend(new SendWorkRequest().wrId(0).opcode(WrOpcode.SEND_WITH_IMM).sendFlags(SendFlags.SIGNALED)
            .immData(qp.qpNum()).ud(peer.ah(), peer.qpn(), peer.qkey())
            .sgList(new ScatterGatherEntry(ctx.sendAddress(index), 4, ctx.mr().lkey())));
        WorkCompletion wc = awaitCompletion(ctx.sendCq());
        if (wc == null || wc.status() != WcStatus.SUCCESS || wc.opcode() != WcOpcode.SEND || wc.wrId() != 0) {
            throw new AttemptFailed("Failed to poll CQ.\nBad WQE status when trying to send UD connection parameters"
                + " in RDMA CM:\n Status: " + (wc == null ? "none" : wc.status().code()) + " ; ID: "
                + (wc == null ? "none" : wc.wrId()) + ".\nFailed to send UD connection parameters to the remote node."
                + "\nFailed to establish UD connection for RDMA CM.");
        }
    }

    /**
     * rdma_cm_initialize_ud_connection_parameters: the client's first SEND (the receive posted before
     * the accept) gives the address handle (from its GRH, as ibv_create_ah_from_wc), its immediate the
     * QP; the Q_Key is the own QP's, the port space's.
     */
    private void initializeUdPeer(int index, QueuePair qp) throws PerftestException {
        WorkCompletion wc = awaitCompletion(ctx.recvCq());
        if (wc == null || wc.status() != WcStatus.SUCCESS || wc.opcode() != WcOpcode.RECV || wc.wrId() != 0) {
            throw new PerftestException("Failed to poll CQ.\nBad WQE status when trying to create AH for UD connection"
                + " in RDMA CM:\n Status: " + (wc == null ? "none" : wc.status().code()) + " ; ID: "
                + (wc == null ? "none" : wc.wrId()) + ".\nFailed to initialize UD connection parameters for RDMA CM."
                + "\nFailed to create RDMA CM connection." + FAILED);
        }
        int at = (int) (ctx.sendAddress(index) - ctx.mr().address());
        Gid source = GrhArea.source(ctx.mr().buffer(), at);
        Gid destination = GrhArea.destination(ctx.mr().buffer(), at);
        int sgidIndex = ctx.device().gids().indexOf(destination);
        AddressVector av = new AddressVector().destGid(source).sgidIndex(sgidIndex < 0 ? p.gidIndex : sgidIndex)
            .hopLimit(0xFF).trafficClass(0).serviceLevel(p.options.sl()).udpPort(p.options.device().peerUdpPort());
        ctx.udPeer(index, av, wc.immData(), qp.query().qkey());
    }

    /**
     * Polls {@code cq} for one completion as perftest does (it spins forever); the twin gives up
     * after {@link #UD_EXCHANGE_GUARD_MS} and returns null.
     */
    private static WorkCompletion awaitCompletion(CompletionQueue cq) {
        WorkCompletion wc = new WorkCompletion();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(UD_EXCHANGE_GUARD_MS);
        while (!cq.poll(wc)) {
            if (System.nanoTime() > deadline || Thread.currentThread().isInterrupted()) {
                return null;
            }
            LockSupport.parkNanos(PARK_NS);
        }
        return wc;
    }

    /** The first connection's ctx_init (buffers, MR, CQs), then create_qp_main on the ID. */
    private QueuePair createQp(RdmaCmId id) throws PerftestException {
        if (!ctx.hasResources()) {
            ctx.initResources(cycleBuffer, cacheLine, out);
        }
        return id.createQp(ctx.pd(), ctx.qpInit());
    }

    private ConnParam connParam() {
        int reads = p.verb.usesOutstandingReads() ? p.outReads : 0;
        return new ConnParam().responderResources(reads).initiatorDepth(reads).retryCount(RETRY_COUNT)
            .rnrRetryCount(RETRY_COUNT);
    }

    /** rdma_cm_event_error_handler's message. */
    private static String eventError(RdmaCmEvent event) {
        return "RDMA CM event error:\nEvent: RDMA_CM_EVENT_" + event.type() + "; error: " + event.status() + ".\n";
    }

    private RdmaCmEvent take() throws InterruptedException {
        while (true) {
            RdmaCmEvent e = channel.get(CM_SLICE_MS, TimeUnit.MILLISECONDS);
            if (e != null) {
                return e;
            }
        }
    }

    /** rdma_cm_destroy_cma after a failed attempt: its QPs, IDs and channel. */
    private void destroyAttempt() {
        destroy();
        connected.clear();
        qps.clear();
        nodes.clear();
        disconnectsLeft = 0;
    }

    /**
     * destroy_ctx's RDMA CM part: rdma_cm_disconnect_nodes (the client's: every connection
     * disconnected, each DISCONNECTED awaited), the QPs, rdma_disconnect of the last ID, the IDs and
     * the channel.
     */
    @Override
    public void close() {
        if (listener != null) { // a failure between the listen and the accepts
            quietly(listener::close);
            listener = null;
        }
        if (disconnectsLeft > 0 && p.qpType != QpType.UD) { // no DISCONNECTED on a UD ID: perftest skips it too
            for (RdmaCmId id : connected) {
                quietly(id::disconnect);
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DISCONNECT_GUARD_MS);
            while (disconnectsLeft > 0 && System.nanoTime() < deadline) {
                RdmaCmEvent e;
                try {
                    e = channel.get(CM_SLICE_MS, TimeUnit.MILLISECONDS);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    break;
                }
                if (e != null) {
                    if (e.type() == RdmaCmEventType.DISCONNECTED) {
                        disconnectsLeft--;
                    }
                    e.ack();
                }
            }
        }
        destroy();
    }

    private void destroy() {
        // perftest destroys the QPs first; jroce's disconnect moves the QP to ERR, so it goes first
        if (!connected.isEmpty() && p.qpType != QpType.UD) {
            quietly(connected.get(connected.size() - 1)::disconnect);
        }
        for (QueuePair qp : qps) {
            quietly(qp::close);
        }
        if (channel == null) {
            return;
        }
        RdmaCmEvent e;
        while ((e = channel.poll()) != null) {
            e.ack();
        }
        List<RdmaCmId> ids = new ArrayList<>(nodes);
        for (RdmaCmId id : connected) {
            if (!ids.contains(id)) {
                ids.add(id);
            }
        }
        for (RdmaCmId id : ids) {
            quietly(id::close);
        }
        quietly(channel::close);
        channel = null;
    }

    /** perftest ignores the status of its teardown calls; so does the twin. */
    private static void quietly(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException ignored) {
            // already gone, or the peer ended it first
        }
    }

    /** One client attempt failed: perftest prints why and tries again. */
    private static final class AttemptFailed extends Exception {
        private static final long serialVersionUID = 1L;

        AttemptFailed(String message) {
            super(message);
        }
    }
}
