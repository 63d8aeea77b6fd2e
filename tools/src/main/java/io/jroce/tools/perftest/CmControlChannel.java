package io.jroce.tools.perftest;

import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.tools.Closer;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
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
import io.jroce.verbs.exchange.PerftestDest;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * perftest's control connection with -R (create_comm_struct with use_rdma_cm, rdma_client_connect,
 * rdma_server_connect): an RC QP of one send and one receive, connected through the RDMA CM to the
 * port of -p (18515), on which every out-of-band message goes as one SEND (rdma_write_data,
 * rdma_read_data: wr_id SYNC_SPEC_ID, a 56-byte receive, sizeof(struct pingpong_dest), re-posted
 * after each message). The server takes one CONNECT_REQUEST, accepts without waiting for
 * ESTABLISHED and destroys its listener; the client retries address and route resolution up to
 * NUM_OF_RETRIES times, then needs ESTABLISHED at once: a REJECTED (nobody listens yet) ends it
 * as perftest's "Unexpected CM event bl blka 8".
 */
final class CmControlChannel implements OobChannel {
    /** SYNC_SPEC_ID: the wr_id of every control message. */
    static final long SYNC_SPEC_ID = 5;
    /** sizeof(struct pingpong_dest): the receive buffer, the largest control message. */
    static final int RECEIVE_LENGTH = PerftestDest.RECORD_LENGTH;
    /** NUM_OF_RETRIES: address and route resolution attempts. */
    static final int NUM_OF_RETRIES = 10;
    /** The timeout perftest gives rdma_resolve_addr and rdma_resolve_route. */
    static final int RESOLVE_TIMEOUT_MS = 2000;
    private static final long CM_SLICE_MS = 200;
    /** How long a wait on the control CQ parks between looks (perftest spins; nothing measured waits here). */
    private static final long PARK_NS = 50_000;
    /** What perftest's establish_connection and main() add when the client's or server's connect fails. */
    private static final String UNABLE_CLIENT =
        "\n Unable to perform rdma_client function\n Unable to init the socket connection";
    private static final String UNABLE_SERVER =
        "\n Unable to perform rdma_server function\n Unable to init the socket connection";

    private final Closer closer = new Closer();
    private final RdmaEventChannel channel;
    private RdmaCmId id;
    private QueuePair qp;
    private MemoryRegion mr;
    private CompletionQueue sendCq;
    private CompletionQueue recvCq;
    private final WorkCompletion wc = new WorkCompletion();

    private CmControlChannel() {
        channel = closer.register(RdmaCm.createEventChannel());
    }

    /** rdma_client_connect from {@code source} (the twin's device address) to {@code server}. */
    /**
     * rdma_client_connect from {@code source} to {@code server}.
     *
     * @param tos -T: the ID's type of service, set once the address is resolved; or {@link PerftestOptions#DEF_TOS}
     */
    static CmControlChannel connect(InetSocketAddress source, InetSocketAddress server, int retryCount, int tos)
        throws PerftestException, InterruptedException {
        CmControlChannel c = new CmControlChannel();
        try {
            c.clientConnect(source, server, retryCount, tos);
            return c;
        } catch (PerftestException | InterruptedException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** rdma_server_connect on {@code local} (the wildcard 0.0.0.0 and -p, as perftest binds). */
    static CmControlChannel accept(InetSocketAddress local, int backlog, int retryCount)
        throws PerftestException, InterruptedException {
        CmControlChannel c = new CmControlChannel();
        try {
            c.serverConnect(local, backlog, retryCount);
            return c;
        } catch (PerftestException | InterruptedException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private void clientConnect(InetSocketAddress source, InetSocketAddress server, int retryCount, int tos)
        throws PerftestException, InterruptedException {
        id = closer.register(channel.createId(PortSpace.TCP));
        int retries = NUM_OF_RETRIES;
        while (true) {
            if (retries == 0) {
                throw new PerftestException("Received " + NUM_OF_RETRIES + " times ADDR_ERROR" + UNABLE_CLIENT);
            }
            try {
                id.resolveAddr(source, server, RESOLVE_TIMEOUT_MS);
            } catch (VerbsException e) {
                throw new PerftestException("rdma_resolve_addr failed (" + e.getMessage() + ")" + UNABLE_CLIENT, e);
            }
            RdmaCmEventType t = nextEvent();
            if (t == RdmaCmEventType.ADDR_ERROR) {
                retries--;
                continue;
            }
            if (t != RdmaCmEventType.ADDR_RESOLVED) {
                throw new PerftestException("unexpected CM event " + t.ordinal() + UNABLE_CLIENT);
            }
            break;
        }
        if (tos != PerftestOptions.DEF_TOS) {
            try {
                id.setOption(RdmaCmOption.TOS, tos);
            } catch (VerbsException e) {
                // perftest prints the event it last took: ADDR_RESOLVED, 0
                throw new PerftestException(" Set TOS option failed: " + RdmaCmEventType.ADDR_RESOLVED.ordinal()
                    + UNABLE_CLIENT, e);
            }
        }
        while (true) {
            if (retries <= 0) {
                throw new PerftestException("Received " + NUM_OF_RETRIES + " times ADDR_ERROR - aborting"
                    + UNABLE_CLIENT);
            }
            id.resolveRoute(RESOLVE_TIMEOUT_MS);
            RdmaCmEventType t = nextEvent();
            if (t == RdmaCmEventType.ROUTE_ERROR) {
                retries--;
                continue;
            }
            if (t != RdmaCmEventType.ROUTE_RESOLVED) {
                throw new PerftestException("unexpected CM event " + t.ordinal() + UNABLE_CLIENT);
            }
            break;
        }
        createResources(id);
        try {
            id.connect(connParam(retryCount));
        } catch (VerbsException e) {
            throw new PerftestException("Function rdma_connect failed (" + e.getMessage() + ")" + UNABLE_CLIENT, e);
        }
        RdmaCmEventType t = nextEvent();
        if (t != RdmaCmEventType.ESTABLISHED) {
            throw new PerftestException("Unexpected CM event bl blka " + t.ordinal() + UNABLE_CLIENT);
        }
    }

    private void serverConnect(InetSocketAddress local, int backlog, int retryCount)
        throws PerftestException, InterruptedException {
        RdmaCmId listener = channel.createId(PortSpace.TCP);
        try {
            try {
                listener.bindAddr(local);
            } catch (VerbsException e) {
                throw new PerftestException(" rdma_bind_addr failed (" + e.getMessage() + ")" + UNABLE_SERVER, e);
            }
            listener.listen(backlog);
            RdmaCmEvent event = take();
            try {
                if (event.type() != RdmaCmEventType.CONNECT_REQUEST) {
                    throw new PerftestException("bad event waiting for connect request " + event.type().ordinal()
                        + UNABLE_SERVER);
                }
                id = closer.register(event.id());
                createResources(id);
                try {
                    id.accept(connParam(retryCount));
                } catch (VerbsException e) {
                    throw new PerftestException("Function rdma_accept failed (" + e.getMessage() + ")"
                        + UNABLE_SERVER, e);
                }
            } finally {
                event.ack();
            }
        } finally {
            listener.close(); // rdma_destroy_id(cm_id_control): the port is free for the test's listener
        }
    }

    /**
     * ctx_init on the control context (RC, SEND, tx_depth and rx_depth 1, no inline), then the
     * receive posted before rdma_connect / rdma_accept (post_one_recv_wqe).
     */
    private void createResources(RdmaCmId cmId) {
        ProtectionDomain pd = closer.register(cmId.device().allocPd());
        mr = closer.register(pd.allocateMemory(PerftestComm.PAGE_SIZE, AccessFlags.LOCAL_WRITE));
        sendCq = closer.register(cmId.device().createCq(1));
        recvCq = closer.register(cmId.device().createCq(1));
        qp = closer.register(cmId.createQp(pd, new QpInitAttributes().type(QpType.RC).sendCq(sendCq).recvCq(recvCq)
            .maxSendWr(1).maxRecvWr(1).maxSendSge(1).maxRecvSge(1).maxInlineData(0)));
        postReceive();
    }

    /** The control connection's conn_param: no READs (its verb is SEND), perftest's retry count, RNR retry 7. */
    private static ConnParam connParam(int retryCount) {
        return new ConnParam().responderResources(0).initiatorDepth(0).retryCount(retryCount).rnrRetryCount(7);
    }

    private void postReceive() {
        qp.postRecv(new ReceiveWorkRequest().wrId(SYNC_SPEC_ID).sgList(ScatterGatherEntry.of(mr, 0, RECEIVE_LENGTH)));
    }

    /** The next event on the control channel, acknowledged; perftest's rdma_get_cm_event blocks likewise. */
    private RdmaCmEventType nextEvent() throws InterruptedException {
        RdmaCmEvent e = take();
        e.ack();
        return e.type();
    }

    private RdmaCmEvent take() throws InterruptedException {
        while (true) {
            RdmaCmEvent e = channel.get(CM_SLICE_MS, TimeUnit.MILLISECONDS);
            if (e != null) {
                return e;
            }
        }
    }

    /** rdma_write_data: the bytes as one signaled SEND, waited for. */
    @Override
    public void send(byte[] data) throws IOException {
        mr.buffer().put(0, data);
        try {
            qp.postSend(new SendWorkRequest().wrId(SYNC_SPEC_ID).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
                .sgList(ScatterGatherEntry.of(mr, 0, data.length)));
        } catch (VerbsException e) {
            throw new IOException("Function ibv_post_send failed (" + e.getMessage() + ")", e);
        }
        awaitCompletion(sendCq);
        if (wc.status() != WcStatus.SUCCESS || wc.opcode() != WcOpcode.SEND || wc.wrId() != SYNC_SPEC_ID) {
            throw new IOException(" Bad wc status " + wc.status().code());
        }
    }

    /** rdma_read_data: the next SEND's first {@code length} bytes; the receive is posted again. */
    @Override
    public byte[] receive(int length) throws IOException {
        awaitCompletion(recvCq);
        if (wc.status() != WcStatus.SUCCESS || wc.opcode() != WcOpcode.RECV || wc.wrId() != SYNC_SPEC_ID) {
            throw new IOException("Bad wc status -- " + wc.status().code() + " -- " + wc.wrId() + " ");
        }
        byte[] data = new byte[length];
        mr.buffer().get(0, data);
        try {
            postReceive();
        } catch (VerbsException e) {
            throw new IOException("Couldn't post send  (" + e.getMessage() + ")", e);
        }
        return data;
    }

    /**
     * Polls {@code cq} until a completion comes. perftest would spin forever; the twin also watches
     * the control connection's CM events and gives up when the peer disconnected or its ID went.
     */
    private void awaitCompletion(CompletionQueue cq) throws IOException {
        while (!cq.poll(wc)) {
            RdmaCmEvent e = channel.poll();
            if (e != null) {
                RdmaCmEventType t = e.type();
                e.ack();
                if (t == RdmaCmEventType.DISCONNECTED || t == RdmaCmEventType.DEVICE_REMOVAL) {
                    if (cq.poll(wc)) {
                        return; // a message that came before the DREQ still counts
                    }
                    throw new IOException("the peer's control connection ended (RDMA_CM_EVENT_" + t + ")");
                }
                continue;
            }
            LockSupport.parkNanos(PARK_NS);
            if (Thread.interrupted()) {
                throw new IOException("interrupted");
            }
        }
    }

    @Override
    public boolean rdmaCm() {
        return true;
    }

    /**
     * The control context's destroy_ctx: QP, CQs, MR, PD; then the ID, which perftest leaves to
     * process exit (the kernel then sends the DREQ, as closing it here does), and the channel.
     */
    @Override
    public void close() {
        RdmaCmEvent e;
        try {
            while ((e = channel.poll()) != null) {
                e.ack();
            }
            closer.close();
        } catch (RuntimeException ignored) {
            // the run is over; perftest does not look at these either
        }
    }
}
