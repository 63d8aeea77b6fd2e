package io.jroce.tools.perftest;

import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.cm.ConnParam;
import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaCmId;
import io.jroce.verbs.cm.RdmaEventChannel;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

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

    private final PerftestParams p;
    private final PerftestContext ctx;
    private final PrintStream out;
    private final PrintStream err;
    private final int cycleBuffer;
    private final int cacheLine;
    private RdmaEventChannel channel;
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
            if (server != null) {
                c.allocateNodes();
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
                c.serverConnection(local);
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
            nodes.add(channel.createId(PortSpace.TCP));
        }
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
        while (connectsLeft > 0) {
            RdmaCmEvent event = take();
            try {
                RdmaCmId id = event.id();
                switch (event.type()) {
                    case ADDR_RESOLVED -> id.resolveRoute(CmControlChannel.RESOLVE_TIMEOUT_MS);
                    case ROUTE_RESOLVED -> {
                        QueuePair qp = createQp(id);
                        id.connect(connParam());
                        connected.add(id);
                        qps.add(qp);
                    }
                    case ESTABLISHED -> {
                        connectsLeft--;
                        disconnectsLeft++;
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

    /** rdma_cm_server_connection: listens, accepts one request per QP, destroys the listener. */
    private void serverConnection(InetSocketAddress local) throws PerftestException, InterruptedException {
        RdmaCmId listener = channel.createId(PortSpace.TCP);
        try {
            try {
                listener.bindAddr(local);
            } catch (VerbsException e) {
                throw new PerftestException("Failed to bind RDMA CM address on the server. (" + e.getMessage() + ")"
                    + "\nFailed to create RDMA CM connection." + FAILED, e);
            }
            listener.listen(p.numQps);
            int connectsLeft = p.numQps;
            while (connectsLeft > 0) {
                RdmaCmEvent event = take();
                try {
                    switch (event.type()) {
                        case CONNECT_REQUEST -> {
                            RdmaCmId id = event.id();
                            QueuePair qp = createQp(id);
                            connected.add(id);
                            qps.add(qp);
                            id.accept(connParam());
                            if (p.qpType == QpType.RC) {
                                qp.modify(new QpAttributes().minRnrTimer(MIN_RNR_TIMER));
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
        }
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
        if (disconnectsLeft > 0) {
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
        if (!connected.isEmpty()) {
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
