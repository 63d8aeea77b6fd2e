package io.jroce.tools.rdmaep;

import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.tools.cmcommon.CmDevicePlan;
import io.jroce.tools.cmcommon.Strerror;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.cm.ConnectionTimeoutException;
import io.jroce.verbs.cm.RdmaAddrInfo;
import io.jroce.verbs.cm.RdmaEndpoint;
import java.io.PrintStream;
import java.time.Duration;

/**
 * rdma_server's {@code run}: a passive endpoint, one request, its 16-byte receive posted before the
 * accept, the client's message awaited, 16 bytes sent back, the disconnect. Returns its status: 0,
 * -1 for a failed call (perror's line printed), or getaddrinfo's error.
 *
 * @param options its options
 * @param out     its stdout
 * @param err     its stderr (perror's lines)
 */
record RdmaServerRun(EpOptions options, PrintStream out, PrintStream err) {
    /** How long one wait for a request lasts before an interrupt is looked at (rdma_get_request blocks). */
    private static final Duration REQUEST_SLICE = Duration.ofMillis(200);

    int run() throws InterruptedException {
        return EpDevice.run(options, true, out, err, this::listenAndServe);
    }

    /**
     * rdma_create_ep and rdma_listen on the address (the wildcard: one listener for every device, as
     * rdma_server's), then one request served; the listener closed before the device.
     */
    private int listenAndServe(CmDevicePlan plan, int port) throws InterruptedException {
        RdmaAddrInfo hints = new RdmaAddrInfo().flags(RdmaAddrInfo.RAI_PASSIVE | RdmaAddrInfo.RAI_NUMERICHOST);
        RdmaEndpoint listener;
        try {
            listener = RdmaCm.createEp(RdmaCm.getAddrInfo(plan.local().getHostAddress(), Integer.toString(port), hints),
                null, EpMessages.qpInit());
        } catch (VerbsException e) {
            err.println(Strerror.perror("rdma_create_ep", e));
            return -1;
        }
        try {
            try {
                listener.listen(0);
            } catch (VerbsException e) {
                err.println(Strerror.perror("rdma_listen", e));
                return -1;
            }
            RdmaEndpoint id;
            try {
                id = getRequest(listener);
            } catch (VerbsException e) {
                err.println(Strerror.perror("rdma_get_request", e));
                return -1;
            }
            try (id) {
                return new EpConversation("rdma_server", out, err).hold(id, "rdma_accept", id::accept, false);
            }
        } finally {
            EpConversation.destroy(listener);
        }
    }

    /** rdma_get_request: it waits as long as it takes, in slices that an interrupt ends. */
    private static RdmaEndpoint getRequest(RdmaEndpoint listener) throws InterruptedException {
        listener.timeout(REQUEST_SLICE);
        while (true) {
            try {
                return listener.getRequest().timeout(RdmaEndpoint.DEFAULT_TIMEOUT);
            } catch (ConnectionTimeoutException none) {
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
            }
        }
    }
}
