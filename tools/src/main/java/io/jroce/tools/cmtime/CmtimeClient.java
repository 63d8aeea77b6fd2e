package io.jroce.tools.cmtime;

import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.tools.cmcommon.CmDevicePlan;
import io.jroce.tools.cmcommon.Teardown;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ResourceBusyException;
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
import java.util.concurrent.TimeUnit;

/**
 * cmtime's client: every connection goes through each step before any goes to the next (all IDs
 * created, all bound, all addresses resolved, ...), the main thread starting a step's calls and
 * waiting for its events, which an event thread takes as cmtime's process_events does; then the
 * IDs are destroyed and the table printed. Returns cmtime's status: the last call's (0 or -1), or
 * getaddrinfo's error; a connection whose event failed is printed and left out of the later steps.
 */
final class CmtimeClient {
    private static final long WAIT_MS = 5000;

    private final CmtimeOptions options;
    private final PrintStream out;
    private final PrintStream err;
    private final CmtimeTimes times;
    private final Node[] nodes;
    private final Map<RdmaCmId, Node> byId = new IdentityHashMap<>();
    /** The PD of each device the IDs resolved to, created with the first QP there. */
    private final Map<RdmaDevice, ProtectionDomain> pds = new IdentityHashMap<>();
    private final int[] started = new int[Step.values().length];
    private final int[] completed = new int[Step.values().length];
    private volatile boolean stopping;
    private InetSocketAddress source;
    private InetSocketAddress destination;

    /** cmtime's {@code struct node}, with the QP and CQ rdma_create_qp made for it. */
    private static final class Node {
        final int index;
        RdmaCmId id;
        volatile boolean error;
        int retries;
        QueuePair qp;
        CompletionQueue cq;

        Node(int index) {
            this.index = index;
        }
    }

    CmtimeClient(CmtimeOptions options, PrintStream out, PrintStream err) {
        this.options = options;
        this.out = out;
        this.err = err;
        this.times = new CmtimeTimes(options.connections());
        this.nodes = new Node[options.connections()];
    }

    int run() throws InterruptedException {
        RdmaDevice device = null;
        Thread events = null;
        int ret;
        try (RdmaEventChannel channel = RdmaCm.createEventChannel()) {
            try {
                out.println("creating id");
                times.startAll(Step.CREATE_ID);
                for (int i = 0; i < nodes.length; i++) {
                    nodes[i] = new Node(i);
                    times.start(i, Step.CREATE_ID);
                    nodes[i].id = channel.createId(PortSpace.TCP);
                    byId.put(nodes[i].id, nodes[i]);
                    times.end(i, Step.CREATE_ID);
                }
                times.endAll(Step.CREATE_ID);

                InetAddress src = options.bind() == null ? null : CmtimeOptions.resolve(options.bind());
                InetAddress dst = options.bind() != null && src == null ? null
                    : CmtimeOptions.resolve(options.server());
                if (dst == null) {
                    out.println("getaddrinfo error: Name or service not known");
                    ret = -2; // EAI_NONAME
                } else {
                    try {
                        CmDevicePlan plan = CmDevicePlan.active(dst, src,
                            options.bindGiven() ? options.device().binds() : null);
                        device = plan.device(options.device()).open();
                        source = plan.local() == null ? null : new InetSocketAddress(plan.local(), 0);
                    } catch (IOException | VerbsException e) {
                        err.println("failure getting addr: " + e.getMessage());
                        return finish(channel, -1);
                    }
                    destination = new InetSocketAddress(dst, options.port());
                    events = new Thread(() -> processEvents(channel), "cmtime-events");
                    events.setDaemon(true);
                    events.start();
                    ret = steps();
                }
                ret = finish(channel, ret); // the event thread still acknowledges the IDs' last events
            } finally {
                stopping = true;
                if (events != null) {
                    events.join(WAIT_MS);
                }
            }
        } finally {
            for (Node n : nodes) {
                if (n != null) {
                    closeQuietly(n.qp);
                    closeQuietly(n.cq);
                }
            }
            pds.values().forEach(CmtimeClient::closeQuietly);
            if (device != null) {
                device.close();
            }
        }
        return ret;
    }

    /** cleanup_nodes ("destroying id", timed) and show_perf. */
    private int finish(RdmaEventChannel channel, int ret) throws InterruptedException {
        out.println("destroying id");
        times.startAll(Step.DESTROY);
        for (Node n : nodes) {
            times.start(n.index, Step.DESTROY);
            destroyId(n.id);
            times.end(n.index, Step.DESTROY);
        }
        times.endAll(Step.DESTROY);
        out.print(times.table(options.bind() != null));
        return ret;
    }

    private int steps() throws InterruptedException {
        int ret = 0;
        if (options.bind() != null) {
            out.println("binding source address");
            times.startAll(Step.BIND);
            for (Node n : nodes) {
                times.start(n.index, Step.BIND);
                try {
                    n.id.bindAddr(source);
                    ret = 0;
                } catch (VerbsException e) {
                    err.println("failure bind addr: " + e.getMessage());
                    n.error = true;
                    ret = -1;
                    continue;
                }
                times.end(n.index, Step.BIND);
            }
            times.endAll(Step.BIND);
        }

        out.println("resolving address");
        times.startAll(Step.RESOLVE_ADDR);
        for (Node n : nodes) {
            if (n.error) {
                continue;
            }
            n.retries = options.retries();
            times.start(n.index, Step.RESOLVE_ADDR);
            try {
                n.id.resolveAddr(source, destination, options.timeoutMs());
                ret = 0;
            } catch (VerbsException e) {
                err.println("failure getting addr: " + e.getMessage());
                n.error = true;
                ret = -1;
                continue;
            }
            started(Step.RESOLVE_ADDR);
        }
        awaitCompleted(Step.RESOLVE_ADDR);
        times.endAll(Step.RESOLVE_ADDR);

        out.println("resolving route");
        times.startAll(Step.RESOLVE_ROUTE);
        for (Node n : nodes) {
            if (n.error) {
                continue;
            }
            n.retries = options.retries();
            times.start(n.index, Step.RESOLVE_ROUTE);
            try {
                n.id.resolveRoute(options.timeoutMs());
                ret = 0;
            } catch (VerbsException e) {
                err.println("failure resolving route: " + e.getMessage());
                n.error = true;
                ret = -1;
                continue;
            }
            started(Step.RESOLVE_ROUTE);
        }
        awaitCompleted(Step.RESOLVE_ROUTE);
        times.endAll(Step.RESOLVE_ROUTE);

        out.println("creating qp");
        times.startAll(Step.CREATE_QP);
        for (Node n : nodes) {
            if (n.error) {
                continue;
            }
            times.start(n.index, Step.CREATE_QP);
            try {
                n.cq = n.id.device().createCq(2); // rdma_create_qp without CQs makes its own
                // rdma_create_qp without a PD takes its device's own, as open_verbs' one PD
                n.qp = n.id.createQp(pds.computeIfAbsent(n.id.device(), RdmaDevice::allocPd), qpInit(n.cq));
                ret = 0;
            } catch (VerbsException e) {
                err.println("failure creating qp: " + e.getMessage());
                n.error = true;
                ret = -1;
                continue;
            }
            times.end(n.index, Step.CREATE_QP);
        }
        times.endAll(Step.CREATE_QP);

        out.println("connecting");
        times.startAll(Step.CONNECT);
        ConnParam param = new ConnParam().responderResources(1).initiatorDepth(1).retryCount(options.retries())
            .rnrRetryCount(0);
        for (Node n : nodes) {
            if (n.error) {
                continue;
            }
            times.start(n.index, Step.CONNECT);
            try {
                n.id.connect(param);
                ret = 0;
            } catch (VerbsException e) {
                err.println("failure rconnecting: " + e.getMessage());
                n.error = true;
                ret = -1;
                continue;
            }
            started(Step.CONNECT);
        }
        awaitCompleted(Step.CONNECT);
        times.endAll(Step.CONNECT);

        out.println("disconnecting");
        times.startAll(Step.DISCONNECT);
        for (Node n : nodes) {
            if (n.error) {
                continue;
            }
            times.start(n.index, Step.DISCONNECT);
            try {
                n.id.disconnect();
            } catch (VerbsException e) {
                // cmtime ignores rdma_disconnect's status
            }
            closeQuietly(n.qp); // rdma_destroy_qp
            n.qp = null;
            started(Step.DISCONNECT);
        }
        awaitCompleted(Step.DISCONNECT);
        times.endAll(Step.DISCONNECT);
        return ret;
    }

    static QpInitAttributes qpInit(CompletionQueue cq) {
        return new QpInitAttributes().type(QpType.RC).cq(cq).maxSendWr(1).maxRecvWr(1).maxSendSge(1).maxRecvSge(1);
    }

    private synchronized void started(Step s) {
        started[s.ordinal()]++;
    }

    private synchronized void completed(Step s) {
        completed[s.ordinal()]++;
        notifyAll();
    }

    /** cmtime spins until every call of the step has had its event; the twin waits for them. */
    private synchronized void awaitCompleted(Step s) throws InterruptedException {
        while (started[s.ordinal()] != completed[s.ordinal()]) {
            wait();
        }
    }

    /** process_events: every event of the channel, until the run ends. */
    private void processEvents(RdmaEventChannel channel) {
        while (!stopping) {
            RdmaCmEvent event;
            try {
                event = channel.get(50, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return;
            }
            if (event != null) {
                try {
                    handle(event);
                } finally {
                    event.ack();
                }
            }
        }
    }

    /** cma_handler, the client's events. */
    private void handle(RdmaCmEvent event) {
        Node n = byId.get(event.id());
        if (n == null) {
            return;
        }
        switch (event.type()) {
            case ADDR_RESOLVED -> {
                times.end(n.index, Step.RESOLVE_ADDR);
                completed(Step.RESOLVE_ADDR);
            }
            case ROUTE_RESOLVED -> {
                times.end(n.index, Step.RESOLVE_ROUTE);
                completed(Step.RESOLVE_ROUTE);
            }
            case ESTABLISHED -> {
                times.end(n.index, Step.CONNECT);
                completed(Step.CONNECT);
            }
            case ADDR_ERROR -> {
                if (n.retries-- != 0 && retry(() -> n.id.resolveAddr(source, destination, options.timeoutMs()))) {
                    return;
                }
                out.println("RDMA_CM_EVENT_ADDR_ERROR, error: " + event.status());
                times.end(n.index, Step.RESOLVE_ADDR);
                n.error = true;
                completed(Step.RESOLVE_ADDR);
            }
            case ROUTE_ERROR -> {
                if (n.retries-- != 0 && retry(() -> n.id.resolveRoute(options.timeoutMs()))) {
                    return;
                }
                out.println("RDMA_CM_EVENT_ROUTE_ERROR, error: " + event.status());
                times.end(n.index, Step.RESOLVE_ROUTE);
                n.error = true;
                completed(Step.RESOLVE_ROUTE);
            }
            case CONNECT_ERROR, UNREACHABLE, REJECTED -> {
                out.println("event: RDMA_CM_EVENT_" + event.type().name() + ", error: " + event.status());
                times.end(n.index, Step.CONNECT);
                n.error = true;
                completed(Step.CONNECT);
            }
            case DISCONNECTED -> {
                times.end(n.index, Step.DISCONNECT);
                completed(Step.DISCONNECT);
            }
            default -> {
                // TIMEWAIT_EXIT, DEVICE_REMOVAL: nothing to time
            }
        }
    }

    private static boolean retry(Runnable call) {
        try {
            call.run();
            return true;
        } catch (VerbsException e) {
            return false;
        }
    }

    /**
     * rdma_destroy_id, which waits while an event the event thread took is not acknowledged (librdmacm's
     * events_completed); jroce's close refuses until then, so it is tried again. Unread events are discarded.
     */
    static void destroyId(RdmaCmId id) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (true) {
            try {
                id.close();
                return;
            } catch (ResourceBusyException e) {
                if (System.nanoTime() - deadline > 0) {
                    throw e;
                }
                Thread.sleep(1);
            }
        }
    }

    static void closeQuietly(AutoCloseable c) {
        Teardown.closeQuietly(c);
    }
}
