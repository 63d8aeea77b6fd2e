package io.jroce.tools.cmatose;

import io.jroce.tools.cmcommon.Strerror;
import io.jroce.verbs.DeviceAttributes;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.cm.ConnParam;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmId;
import io.jroce.verbs.cm.RdmaCmOption;
import io.jroce.verbs.cm.RdmaEventChannel;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * cmatose's {@code struct cmatest} and its event handling: the nodes, the counts of connections
 * still to come and to end, and {@code cma_handler} with its address, route and connect request
 * handlers; {@code connect_events} and {@code disconnect_events} take events until those counts
 * reach zero. One thread runs it all, as cmatose does.
 */
final class CmatoseTest {
    /** rdma_resolve_route's timeout in cmatose. */
    static final int RESOLVE_TIMEOUT_MS = 2000;
    /** How long one wait for a CM event lasts before the wait is taken up again (rdma_get_cm_event blocks). */
    private static final long EVENT_SLICE_MS = 200;
    /** How long a poll of empty CQs sleeps: cmatose spins; two cores shared by both sides cannot. */
    private static final long IDLE_POLL_NS = 20_000;

    final CmatoseOptions options;
    final RdmaEventChannel channel;
    final List<CmatoseNode> nodes = new ArrayList<>();
    /** cma_id->context: each node's ID. */
    private final Map<RdmaCmId, CmatoseNode> contexts = new IdentityHashMap<>();
    /** IDs of requests rejected: cmatose leaves them; jroce's channel closes only when they are destroyed. */
    private final List<RdmaCmId> turnedAway = new ArrayList<>();
    private final PrintStream out;
    private final PrintStream err;
    /** message_count: create_message makes it 0 when the size is 0. */
    int count;
    final int size;
    private int connIndex;
    int connectsLeft;
    int disconnectsLeft;

    CmatoseTest(CmatoseOptions options, RdmaEventChannel channel, PrintStream out, PrintStream err) {
        this.options = options;
        this.channel = channel;
        this.out = out;
        this.err = err;
        this.count = options.count();
        this.size = options.size();
        this.connectsLeft = options.connections();
        for (int i = 0; i < options.connections(); i++) {
            nodes.add(new CmatoseNode(i));
        }
    }

    /** printf. */
    void out(String line) {
        out.println(line);
    }

    /** perror and fprintf(stderr). */
    void err(String line) {
        err.println(line);
    }

    /** A client node's ID (alloc_nodes). */
    void context(CmatoseNode node, RdmaCmId id) {
        node.cmId = id;
        contexts.put(id, node);
    }

    /** connect_events: events until every connection is made or one fails; 0 or the failure's status. */
    int connectEvents() throws InterruptedException {
        int ret = 0;
        while (connectsLeft != 0 && ret == 0) {
            ret = nextEvent();
        }
        return ret;
    }

    /** disconnect_events: events until every connection has ended. */
    int disconnectEvents() throws InterruptedException {
        int ret = 0;
        while (disconnectsLeft != 0 && ret == 0) {
            ret = nextEvent();
        }
        return ret;
    }

    /** rdma_get_cm_event, cma_handler, rdma_ack_cm_event. */
    private int nextEvent() throws InterruptedException {
        RdmaCmEvent event;
        do {
            event = channel.get(EVENT_SLICE_MS, TimeUnit.MILLISECONDS);
        } while (event == null);
        int ret;
        try {
            ret = handle(event);
        } finally {
            event.ack();
        }
        for (RdmaCmId id : turnedAway) {
            destroyId(id);
        }
        turnedAway.clear();
        return ret;
    }

    /** cma_handler. */
    private int handle(RdmaCmEvent event) {
        RdmaCmId id = event.id();
        switch (event.type()) {
            case ADDR_RESOLVED -> {
                return addrHandler(contexts.get(id));
            }
            case ROUTE_RESOLVED -> {
                return routeHandler(contexts.get(id));
            }
            case CONNECT_REQUEST -> {
                return connectHandler(id, event.connParam());
            }
            case ESTABLISHED -> {
                CmatoseNode node = contexts.get(id);
                if (node != null) {
                    node.connected = true;
                }
                connectsLeft--;
                disconnectsLeft++;
                return 0;
            }
            case ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR, UNREACHABLE, REJECTED -> {
                out("cmatose: event: RDMA_CM_EVENT_" + event.type().name() + ", error: " + event.status());
                connectError();
                return event.status();
            }
            case DISCONNECTED -> {
                disconnect(id);
                disconnectsLeft--;
                return 0;
            }
            default -> {
                return 0; // DEVICE_REMOVAL: cleaned up after the test; the rest cmatose ignores
            }
        }
    }

    /** rdma_set_option as cmatose calls it: a failure is perror'd, and the run goes on. */
    private void setOption(RdmaCmId id, RdmaCmOption option, int value, String failure) {
        try {
            id.setOption(option, value);
        } catch (VerbsException e) {
            err(Strerror.perror(failure, e));
        }
    }

    private void connectError() {
        connectsLeft--;
    }

    /** addr_handler: -t and -a (rdma_set_option, a failure only reported), then rdma_resolve_route. */
    private int addrHandler(CmatoseNode node) {
        if (options.tos() != null) {
            setOption(node.cmId, RdmaCmOption.TOS, options.tos(), "cmatose: set TOS option failed");
        }
        if (options.ackTimeout() != null) {
            setOption(node.cmId, RdmaCmOption.ACK_TIMEOUT, options.ackTimeout(),
                "cmatose: set ack timeout option failed");
        }
        try {
            node.cmId.resolveRoute(RESOLVE_TIMEOUT_MS);
            return 0;
        } catch (VerbsException e) {
            err(Strerror.perror("cmatose: resolve route failed", e));
            connectError();
            return -1;
        }
    }

    /** route_handler: the node's resources, its receives, rdma_connect with cmatose's parameters. */
    private int routeHandler(CmatoseNode node) {
        int ret = node.init(this);
        if (ret == 0) {
            ret = node.postRecvs(this);
        }
        if (ret == 0) {
            try {
                node.cmId.connect(connParam());
            } catch (VerbsException e) {
                err(Strerror.perror("cmatose: failure connecting", e));
                ret = -1;
            }
        }
        if (ret != 0) {
            connectError();
        }
        return ret;
    }

    /** cmatose's rdma_conn_param: one READ each way, retry count 5, the rest 0 (RNR retry count 0). */
    static ConnParam connParam() {
        return new ConnParam().responderResources(1).initiatorDepth(1).retryCount(5).rnrRetryCount(0);
    }

    /** connect_handler: the next node takes the request, posts its receives and accepts; beyond -c, a reject. */
    private int connectHandler(RdmaCmId id, ConnParam theirs) {
        int ret;
        if (connIndex == nodes.size()) {
            ret = CmatoseNode.MINUS_ENOMEM;
        } else {
            CmatoseNode node = nodes.get(connIndex++);
            node.cmId = id;
            contexts.put(id, node);
            ret = node.init(this);
            if (ret == 0 && options.ackTimeout() != null) {
                setOption(id, RdmaCmOption.ACK_TIMEOUT, options.ackTimeout(), "cmatose: set ack timeout option failed");
            }
            if (ret == 0) {
                ret = node.postRecvs(this);
            }
            if (ret == 0) {
                try {
                    id.accept(acceptParam(id, theirs));
                    return 0;
                } catch (VerbsException e) {
                    err(Strerror.perror("cmatose: failure accepting", e));
                    ret = -1;
                }
            }
            node.cmId = null;
            contexts.remove(id);
            node.destroy(this); // what init_node made; cmatose leaks it with the ID
            connectError();
        }
        out("cmatose: failing connection request");
        try {
            id.reject(new byte[0]);
        } catch (VerbsException e) {
            // cmatose ignores rdma_reject's status
        }
        turnedAway.add(id);
        return ret;
    }

    /**
     * rdma_accept without parameters: the REQ's values bounded by the device's (librdmacm's
     * {@code rdma_accept} with a NULL conn_param), retry and RNR retry counts 7.
     */
    private static ConnParam acceptParam(RdmaCmId id, ConnParam theirs) {
        DeviceAttributes caps = id.device().queryDevice();
        ConnParam t = theirs == null ? new ConnParam() : theirs;
        return new ConnParam().responderResources(Math.min(t.responderResources(), caps.maxQpRdAtom()))
            .initiatorDepth(Math.min(t.initiatorDepth(), caps.maxQpInitRdAtom())).retryCount(7).rnrRetryCount(7);
    }

    /** rdma_disconnect, whose status cmatose ignores. */
    static void disconnect(RdmaCmId id) {
        try {
            id.disconnect();
        } catch (VerbsException e) {
            // ignored, as cmatose does
        }
    }

    /**
     * poll_cqs: on each connected node, -C completions of the send or receive CQ, whatever their
     * status (cmatose counts them only).
     */
    int pollCqs(boolean send) throws InterruptedException {
        WorkCompletion[] wcs = new WorkCompletion[8];
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
        for (CmatoseNode node : nodes) {
            if (!node.connected) {
                continue;
            }
            int done = 0;
            while (done < count) {
                int n = (send ? node.sendCq : node.recvCq).poll(wcs);
                if (n == 0) {
                    if (Thread.interrupted()) {
                        throw new InterruptedException();
                    }
                    LockSupport.parkNanos(IDLE_POLL_NS);
                }
                done += n;
            }
        }
        return 0;
    }

    /** destroy_nodes. */
    void destroyNodes() {
        for (CmatoseNode node : nodes) {
            node.destroy(this);
        }
    }

    /**
     * rdma_destroy_id. cmatose takes and acknowledges events on this thread, so none is left taken and
     * unacknowledged; the ID's events still unread are discarded with it.
     */
    void destroyId(RdmaCmId id) {
        try {
            id.close();
        } catch (VerbsException e) {
            // cmatose ignores rdma_destroy_id's status
        }
    }
}
