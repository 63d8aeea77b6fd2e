package io.jroce.tools.rping;

import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.tools.cmcommon.CmDevicePlan;
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
 * channel and ID, the CM thread, the server or client, and the teardown; returns rping's exit
 * status. An interrupt (a run stopped from outside, as a signal stops rping) still tears
 * everything down, so that the device closes.
 */
final class RpingRun {
    /** How long the end of a connection may take: the flush of the posted receive, the DREP. */
    static final long TEARDOWN_MS = 5000;
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
        String failedCall = options.server() ? "rdma_bind_addr: " : "rdma_resolve_addr: ";
        CmDevicePlan plan;
        RdmaDevice device;
        try {
            plan = options.server() ? CmDevicePlan.passive(options.address(), options.binds())
                : CmDevicePlan.active(options.address(), options.source(), options.binds());
            device = plan.device(options.device()).open();
        } catch (IOException | VerbsException e) {
            log.err(failedCall + e.getMessage());
            return CmThread.EXIT_FAILURE_STATUS;
        }
        RpingServer server = null;
        try (RdmaEventChannel channel = RdmaCm.createEventChannel()) {
            RdmaCmId cmId = channel.createId(PortSpace.TCP);
            log.debug("created cm_id " + RpingLog.pointer(cmId));
            ControlBlock cb = new ControlBlock(options.server(), options, log, cmId);
            cmThread = new CmThread(channel);
            cmThread.context(cmId, cb);
            cmThread.start();
            server = options.server() ? new RpingServer(this, cb) : null;
            boolean destroyed = false;
            try {
                int ret;
                if (server != null) {
                    InetSocketAddress address = plan.localSocket(options.port());
                    ret = options.persistent() ? server.runPersistent(address) : server.run(address);
                } else {
                    ret = new RpingClient(this, cb).run(plan.localSocket(0),
                        new InetSocketAddress(plan.destination(), options.port()));
                }
                log.debug("destroy cm_id " + RpingLog.pointer(cmId));
                destroyId(cmId);
                destroyed = true;
                int fatal = cmThread.fatalStatus();
                return fatal != 0 ? fatal : ret & 0xFF;
            } finally {
                boolean interrupted = Thread.interrupted();
                if (server != null) {
                    server.stopConnections();
                }
                if (!destroyed) {
                    destroyId(cmId);
                }
                cmThread.shutdown();
                if (server != null) {
                    server.releaseLeftovers();
                }
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        } finally {
            closeDevice(device, server);
        }
    }

    /**
     * Closes the run's device, as rping's exit releases everything: a connection thread still
     * tearing down may hold its QP, CQ and PD for a moment longer, so a refused close is tried again
     * (what is left freed each time) for {@link #TEARDOWN_MS}. A device left open would stay bound
     * and registered with the RDMA CM for the rest of the JVM, and take every later run's address;
     * so if it still cannot close, the run says so on stderr.
     */
    private void closeDevice(RdmaDevice device, RpingServer server) {
        try {
            retryWhileBusy(device::close, server == null ? () -> { } : server::releaseLeftovers);
        } catch (ResourceBusyException e) {
            log.err("jroce: device " + device.name() + " could not close: " + e.getMessage());
        }
    }

    /**
     * What rping's server and client do alike before they accept or connect: setup_qp on
     * {@code id}, rping_setup_buffers, the first ibv_post_recv and the CQ thread. 0 with
     * {@code cb.connection} ready, or the errno with rping's line, what was made freed.
     */
    int setupConnection(ControlBlock cb, RdmaCmId id) {
        Connection conn;
        try {
            conn = Connection.setupQp(cb, id);
        } catch (VerbsException e) {
            cb.log.err("setup_qp failed: " + Errno.of(e));
            return Errno.of(e);
        }
        cb.connection = conn;
        try {
            conn.setupBuffers();
        } catch (VerbsException e) {
            cb.log.err("rping_setup_buffers failed: " + Errno.of(e));
            conn.freeQp();
            return Errno.of(e);
        }
        try {
            conn.postRecv();
        } catch (VerbsException e) {
            cb.log.err("ibv_post_recv failed: " + Errno.of(e));
            conn.freeBuffers();
            conn.freeQp();
            return Errno.of(e);
        }
        conn.cqThread = new CqThread(cb, conn);
        conn.cqThread.start();
        return 0;
    }

    /**
     * The end of a connection, as rping's run_server and run_client end it: rping_disconnect if
     * it was up, pthread_join of the CQ thread (which ends at the flush of the posted receive;
     * bounded, and cut short when the CM thread ended the run), the client's DISCONNECTED, the
     * server's rdma_destroy_id of the child, and the buffers and QP freed. Runs on the way out of
     * an interrupt too, without waiting then.
     *
     * @param child the server's connection ID, null for the client (its ID is the run's)
     */
    void teardown(ControlBlock cb, RdmaCmId child, boolean connected, boolean server) {
        boolean interrupted = Thread.interrupted();
        Connection conn = cb.connection;
        if (connected) {
            disconnect(cb, server ? child : cb.cmId);
        }
        if (connected && !interrupted) {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TEARDOWN_MS);
            while (conn.cqThread.isAlive() && cmThread.fatalStatus() == 0 && System.nanoTime() - deadline < 0) {
                joinUninterruptibly(conn.cqThread, RETRY_MS * 20);
            }
        }
        conn.cqThread.interrupt();
        joinUninterruptibly(conn.cqThread, TEARDOWN_MS);
        if (connected && !interrupted && !server) {
            // rping prints "client DISCONNECT EVENT..." when the DREP beats its rdma_destroy_id, which
            // it almost always does: the twin waits for it so that it always does
            try {
                cb.disconnected.await(TEARDOWN_MS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        try {
            if (child != null) {
                destroyId(child);
            }
        } finally {
            // Even when the ID could not be destroyed (an event never acknowledged): left behind, the
            // connection's PD and CQ would keep the device from closing, and a closed run's device
            // would stay bound and registered with the RDMA CM for the rest of the JVM.
            conn.freeBuffers();
            conn.freeQp();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** rping_disconnect: rdma_disconnect (QP to ERR, then the DREQ, or the DREP to the peer's). */
    private static void disconnect(ControlBlock cb, RdmaCmId id) {
        try {
            id.disconnect();
        } catch (VerbsException e) {
            cb.log.debug("rdma_disconnect: " + e.getMessage()); // rping ignores its status
        }
    }

    /**
     * rdma_destroy_id, which waits while an event the CM thread took is not acknowledged (librdmacm's
     * events_completed); jroce's close refuses until then, so it is tried again. Unread events are discarded.
     */
    void destroyId(RdmaCmId id) {
        retryWhileBusy(() -> {
            id.close();
            cmThread.forget(id);
        }, () -> { });
    }

    /**
     * Runs {@code attempt} until it does not refuse with {@link ResourceBusyException}, for at most
     * {@link #TEARDOWN_MS}, running {@code between} and waiting {@link #RETRY_MS} after each refusal;
     * then the last refusal is thrown. An interrupt does not cut it short (it is kept for the caller).
     */
    private static void retryWhileBusy(Runnable attempt, Runnable between) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TEARDOWN_MS);
        boolean interrupted = Thread.interrupted();
        try {
            while (true) {
                try {
                    attempt.run();
                    return;
                } catch (ResourceBusyException e) {
                    if (System.nanoTime() - deadline > 0) {
                        throw e;
                    }
                    between.run();
                    try {
                        Thread.sleep(RETRY_MS);
                    } catch (InterruptedException ie) {
                        interrupted = true;
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Thread.join that an interrupt does not cut short (it is kept for the caller). */
    static void joinUninterruptibly(Thread t, long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        boolean interrupted = false;
        while (t.isAlive() && System.nanoTime() - deadline < 0) {
            try {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
