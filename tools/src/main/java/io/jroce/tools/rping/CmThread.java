package io.jroce.tools.rping;

import io.jroce.verbs.VerbsException;
import io.jroce.verbs.cm.ConnParam;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmId;
import io.jroce.verbs.cm.RdmaEventChannel;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * rping's cm_thread and {@code rping_cma_event_handler}: takes each CM event, acknowledges it, and
 * tells the block of its ID (rping's {@code cma_id->context}). An event rping's thread ends the
 * process on (an error, a removed device) ends this thread with {@link #fatalStatus()} set, which
 * the command returns as its status.
 */
final class CmThread extends Thread {
    /** exit(-1) as the shell sees it. */
    static final int EXIT_FAILURE_STATUS = 255;
    /** rdma_resolve_route's timeout in rping. */
    static final int RESOLVE_TIMEOUT_MS = 2000;
    private static final long SLICE_MS = 200;

    private final RdmaEventChannel channel;
    /** Each ID's block: a new connection's ID starts with its listener's, as cma_id->context is inherited. */
    private final Map<RdmaCmId, ControlBlock> contexts = new ConcurrentHashMap<>();
    private volatile boolean stopping;
    /** A second connection to a server without -P, rejected; closed once its event is acknowledged. */
    private RdmaCmId turnedAway;
    private volatile int fatalStatus;

    CmThread(RdmaEventChannel channel) {
        super("rping-cm");
        setDaemon(true);
        this.channel = channel;
    }

    /** Sets {@code id}'s context. */
    void context(RdmaCmId id, ControlBlock cb) {
        contexts.put(id, cb);
    }

    /** Forgets {@code id} (destroyed). */
    void forget(RdmaCmId id) {
        contexts.remove(id);
    }

    /** 0, or the status the process would have exited with from this thread. */
    int fatalStatus() {
        return fatalStatus;
    }

    /** Ends the thread (rping 44's ends with its process); waits for it even when interrupted. */
    void shutdown() {
        stopping = true;
        interrupt(); // it may wait in accept_ready
        RpingRun.joinUninterruptibly(this, RpingRun.TEARDOWN_MS);
    }

    @Override
    public void run() {
        try {
            while (!stopping) {
                RdmaCmEvent event = channel.get(SLICE_MS, TimeUnit.MILLISECONDS);
                if (event == null) {
                    continue;
                }
                int ret;
                try {
                    ret = handle(event);
                } finally {
                    event.ack();
                }
                if (turnedAway != null) {
                    turnedAway.close();
                    turnedAway = null;
                }
                if (ret != 0) {
                    fatalStatus = EXIT_FAILURE_STATUS;
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private int handle(RdmaCmEvent event) throws InterruptedException {
        RdmaCmId id = event.id();
        ControlBlock cb = contexts.get(id);
        if (cb == null && event.listenId() != null) {
            cb = contexts.get(event.listenId());
            contexts.putIfAbsent(id, cb);
        }
        if (cb == null) {
            return 0; // an ID already destroyed
        }
        String name = "RDMA_CM_EVENT_" + event.type().name();
        cb.log.debug("cma_event type " + name + " cma_id " + RpingLog.pointer(id) + " ("
            + (id == cb.cmId ? "parent" : "child") + ")");
        switch (event.type()) {
            case ADDR_RESOLVED -> {
                cb.state = TestState.ADDR_RESOLVED;
                try {
                    id.resolveRoute(RESOLVE_TIMEOUT_MS);
                } catch (VerbsException e) {
                    cb.log.err("rdma_resolve_route: " + e.getMessage());
                    cb.post(TestState.ERROR);
                }
            }
            case ROUTE_RESOLVED -> cb.post(TestState.ROUTE_RESOLVED);
            case CONNECT_REQUEST -> {
                if (!cb.options.persistent() && cb.childCmId != null) {
                    // rping 44 would take it over the connection it serves (its child_cm_id overwritten,
                    // the serving loop failing on the state); the twin rejects it (REJ 28) instead
                    id.reject(new byte[0]);
                    turnedAway = id;
                    contexts.remove(id);
                    return 0;
                }
                cb.acceptReady.acquire();
                cb.requestParam = event.connParam() == null ? new ConnParam() : event.connParam();
                cb.childCmId = id;
                cb.log.debug("child cma " + RpingLog.pointer(id));
                cb.post(TestState.CONNECT_REQUEST);
            }
            case CONNECT_RESPONSE -> {
                cb.log.debug("CONNECT_RESPONSE");
                cb.post(TestState.CONNECTED);
            }
            case ESTABLISHED -> {
                cb.log.debug("ESTABLISHED");
                if (!cb.server) {
                    cb.state = TestState.CONNECTED; // the server wakes when the first RECV completes
                }
                cb.post();
            }
            case ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR, UNREACHABLE, REJECTED -> {
                cb.log.err("cma event " + name + ", error " + event.status());
                cb.post();
                return -1;
            }
            case DISCONNECTED -> {
                cb.log.err((cb.server ? "server" : "client") + " DISCONNECT EVENT...");
                cb.post(TestState.DISCONNECTED);
                cb.disconnected.countDown();
            }
            case DEVICE_REMOVAL -> {
                cb.log.err("cma detected device removal!!!!");
                cb.post(TestState.ERROR);
                return -1;
            }
            default -> cb.log.err("unhandled event: " + name + ", ignoring");
        }
        return 0;
    }
}
