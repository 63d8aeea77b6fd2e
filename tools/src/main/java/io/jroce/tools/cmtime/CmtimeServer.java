package io.jroce.tools.cmtime;

import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.tools.cmcommon.AddrLookup;
import io.jroce.tools.cmcommon.CmDevicePlan;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.DeviceAttributes;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.cm.ConnParam;
import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmId;
import io.jroce.verbs.cm.RdmaEventChannel;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * cmtime's server: it listens, and until it is stopped (an interrupt, as a signal stops cmtime)
 * its event loop hands each CONNECT_REQUEST to a request thread (a QP, then rdma_accept with the
 * REQ's values) and each DISCONNECTED to a disconnect thread (rdma_disconnect, the QP and the ID
 * destroyed), as cmtime's req_handler_thread and disc_handler_thread do. It prints nothing while it
 * serves.
 */
final class CmtimeServer {
    private final CmtimeOptions options;
    private final PrintStream out;
    private final PrintStream err;
    private final ExecutorService requests = Executors.newSingleThreadExecutor(r -> new Thread(r, "cmtime-req"));
    private final ExecutorService disconnects = Executors.newSingleThreadExecutor(r -> new Thread(r, "cmtime-disc"));
    /** The QP and CQ of each connection, until the disconnect thread destroys them; guarded by itself. */
    private final Map<RdmaCmId, Conn> qps = new IdentityHashMap<>();
    private ProtectionDomain pd;

    /** What rdma_create_qp made for a connection. */
    private record Conn(QueuePair qp, CompletionQueue cq) {
        void close() {
            CmtimeClient.closeQuietly(qp);
            CmtimeClient.closeQuietly(cq);
        }
    }

    CmtimeServer(CmtimeOptions options, PrintStream out, PrintStream err) {
        this.options = options;
        this.out = out;
        this.err = err;
    }

    /** Serves until interrupted (then throws InterruptedException, torn down); returns early only on a failure. */
    int run() throws InterruptedException {
        RdmaDevice device = null;
        try (RdmaEventChannel channel = RdmaCm.createEventChannel()) {
            RdmaCmId listenId = channel.createId(PortSpace.TCP);
            try {
                InetAddress bind = options.bind() == null ? null : CmtimeOptions.resolve(options.bind());
                if (options.bind() != null && bind == null) {
                    out.println("getrdmaaddr error: Name or service not known");
                    return -2 & 0xFF;
                }
                InetAddress local;
                try {
                    CmDevicePlan plan = CmDevicePlan.passive(bind != null ? bind : AddrLookup.ANY_IPV4,
                        options.bindGiven() ? options.device().binds() : null);
                    device = plan.device(options.device()).open();
                    pd = device.allocPd();
                    local = plan.local();
                    listenId.bindAddr(new InetSocketAddress(local, options.port()));
                } catch (IOException | VerbsException e) {
                    err.println("bind address failed: " + e.getMessage());
                    return 0xFF;
                }
                try {
                    listenId.listen(0);
                } catch (VerbsException e) {
                    err.println("failure trying to listen: " + e.getMessage());
                    return 0xFF;
                }
                processEvents(channel);
                return 0; // not reached: processEvents ends by an interrupt
            } finally {
                boolean interrupted = Thread.interrupted();
                requests.shutdownNow();
                disconnects.shutdownNow();
                requests.awaitTermination(5, TimeUnit.SECONDS);
                disconnects.awaitTermination(5, TimeUnit.SECONDS);
                synchronized (qps) {
                    qps.forEach((id, conn) -> {
                        conn.close();
                        CmtimeClient.closeQuietly(id);
                    });
                    qps.clear();
                }
                CmtimeClient.closeQuietly(listenId);
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        } finally {
            CmtimeClient.closeQuietly(pd);
            if (device != null) {
                device.close();
            }
        }
    }

    private void processEvents(RdmaEventChannel channel) throws InterruptedException {
        while (true) {
            RdmaCmEvent event = channel.get(1, TimeUnit.SECONDS);
            if (event == null) {
                continue;
            }
            try {
                RdmaCmId id = event.id();
                switch (event.type()) {
                    case CONNECT_REQUEST -> {
                        ConnParam theirs = event.connParam();
                        requests.execute(() -> accept(id, theirs));
                    }
                    case DISCONNECTED -> disconnects.execute(() -> disconnect(id));
                    default -> {
                        // ESTABLISHED of a connection with no node, TIMEWAIT_EXIT: nothing to do
                    }
                }
            } finally {
                event.ack();
            }
        }
    }

    /** __req_handler: rdma_create_qp, rdma_accept without parameters (the REQ's values). */
    private void accept(RdmaCmId id, ConnParam theirs) {
        CompletionQueue cq = null;
        QueuePair qp = null;
        try {
            cq = id.device().createCq(2);
            qp = id.createQp(pd, CmtimeClient.qpInit(cq));
        } catch (VerbsException e) {
            err.println("failure creating qp: " + e.getMessage());
            CmtimeClient.closeQuietly(cq);
            refuse(id);
            return;
        }
        DeviceAttributes caps = id.device().queryDevice();
        try {
            synchronized (qps) {
                qps.put(id, new Conn(qp, cq));
            }
            id.accept(new ConnParam().responderResources(Math.min(theirs.responderResources(), caps.maxQpRdAtom()))
                .initiatorDepth(Math.min(theirs.initiatorDepth(), caps.maxQpInitRdAtom())).retryCount(7)
                .rnrRetryCount(7));
        } catch (VerbsException e) {
            err.println("failure accepting: " + e.getMessage());
            synchronized (qps) {
                qps.remove(id);
            }
            CmtimeClient.closeQuietly(qp);
            CmtimeClient.closeQuietly(cq);
            refuse(id);
        }
    }

    private void refuse(RdmaCmId id) {
        out.println("failing connection request");
        try {
            id.reject(null);
        } catch (VerbsException e) {
            // cmtime ignores rdma_reject's status
        }
        destroy(id);
    }

    /** The disconnect thread: rdma_disconnect (the DREP), rdma_destroy_qp, rdma_destroy_id. */
    private void disconnect(RdmaCmId id) {
        try {
            id.disconnect();
        } catch (VerbsException e) {
            // cmtime ignores rdma_disconnect's status
        }
        Conn conn;
        synchronized (qps) {
            conn = qps.remove(id);
        }
        if (conn != null) {
            conn.close();
        }
        destroy(id);
    }

    private static void destroy(RdmaCmId id) {
        try {
            CmtimeClient.destroyId(id);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (VerbsException e) {
            // the ID stays to the channel's end
        }
    }
}
