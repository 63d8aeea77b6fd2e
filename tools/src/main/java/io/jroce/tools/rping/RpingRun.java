package io.jroce.tools.rping;

import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ResourceBusyException;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaCmId;
import io.jroce.verbs.cm.RdmaEventChannel;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * One run of rping's main once its options are read: the device its addresses call for, the event
 * channel and ID, the CM thread, the server or client, and the teardown; returns rping's exit status.
 */
final class RpingRun {
    /** How long the end of a connection may take: the flush of the posted receive, the DREP. */
    private static final long TEARDOWN_MS = 5000;
    /** How often a busy ID (an event still being handled) is tried again on the way out. */
    private static final long RETRY_MS = 5;

    private final RpingOptions options;
    private final RpingLog log;
    private CmThread cmThread;

    RpingRun(RpingOptions options, RpingLog log) {
        this.options = options;
        this.log = log;
    }

    CmThread cmThread() {
        return cmThread;
    }

    int run() throws InterruptedException {
        DevicePlan plan;
        try {
            plan = options.server() ? DevicePlan.server(options) : DevicePlan.client(options);
        } catch (IOException e) {
            log.err((options.server() ? "rdma_bind_addr: " : "rdma_resolve_addr: ") + e.getMessage());
            return CmThread.EXIT_FAILURE_STATUS;
        }
        RdmaDevice device;
        try {
            device = plan.device(options.device()).open();
        } catch (VerbsException e) {
            log.err((options.server() ? "rdma_bind_addr: " : "rdma_resolve_addr: ") + e.getMessage());
            return CmThread.EXIT_FAILURE_STATUS;
        }
        try (device; RdmaEventChannel channel = RdmaCm.createEventChannel()) {
            RdmaCmId cmId = channel.createId(PortSpace.TCP);
            log.debug("created cm_id " + RpingLog.pointer(cmId));
            ControlBlock cb = new ControlBlock(options.server(), options, log, cmId);
            cmThread = new CmThread(channel);
            cmThread.context(cmId, cb);
            cmThread.start();
            int ret;
            try {
                if (options.server()) {
                    RpingServer server = new RpingServer(this, cb);
                    ret = options.persistent() ? server.runPersistent(plan.localSocket(options.port()))
                        : server.run(plan.localSocket(options.port()));
                } else {
                    ret = new RpingClient(this, cb).run(plan.localSocket(0),
                        new InetSocketAddress(plan.destination(), options.port()));
                }
                log.debug("destroy cm_id " + RpingLog.pointer(cmId));
                destroyId(cmId);
            } finally {
                cmThread.shutdown();
            }
            int fatal = cmThread.fatalStatus();
            return fatal != 0 ? fatal : ret & 0xFF;
        }
    }

    void startCqThread(ControlBlock cb, Connection conn) {
        conn.cqThread = new CqThread(cb, conn);
        conn.cqThread.start();
    }

    /**
     * pthread_join of the CQ thread, which ends at the flush of the receive the QP's move to ERR
     * completes; bounded, and cut short when the CM thread ended the run (rping's process would be gone).
     */
    void joinCqThread(Connection conn) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TEARDOWN_MS);
        while (conn.cqThread.isAlive() && cmThread.fatalStatus() == 0 && System.nanoTime() - deadline < 0) {
            conn.cqThread.join(RETRY_MS * 20);
        }
        stopCqThread(conn);
    }

    /** pthread_cancel and pthread_join. */
    void stopCqThread(Connection conn) throws InterruptedException {
        conn.cqThread.interrupt();
        conn.cqThread.join();
    }

    /** rping_disconnect: rdma_disconnect (QP to ERR, then the DREQ, or the DREP to the peer's). */
    void disconnect(ControlBlock cb, RdmaCmId id) {
        try {
            id.disconnect();
        } catch (VerbsException e) {
            cb.log.debug("rdma_disconnect: " + e.getMessage()); // rping ignores its status
        }
    }

    /**
     * The client waits for DISCONNECTED (the DREP) before destroying its ID, so that "client
     * DISCONNECT EVENT..." is printed every time: rping prints it when the DREP beats its
     * rdma_destroy_id, which it almost always does.
     */
    void awaitDisconnected(ControlBlock cb) throws InterruptedException {
        cb.disconnected.await(TEARDOWN_MS, TimeUnit.MILLISECONDS);
    }

    /** rdma_destroy_id, once the CM thread has acknowledged the ID's events. */
    void destroyId(RdmaCmId id) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TEARDOWN_MS);
        while (true) {
            try {
                id.close();
                cmThread.forget(id);
                return;
            } catch (ResourceBusyException e) {
                if (System.nanoTime() - deadline > 0) {
                    throw e;
                }
                Thread.sleep(RETRY_MS);
            }
        }
    }
}
