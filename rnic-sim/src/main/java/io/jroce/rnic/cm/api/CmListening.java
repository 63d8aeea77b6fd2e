package io.jroce.rnic.cm.api;

import java.net.InetSocketAddress;
import java.util.List;

import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.cm.PortSpace;

/**
 * A listening ID's listening: on its device, or a wildcard's on every registered device and on those
 * that register later ({@link WildcardListener}); its connect requests and their backlog
 * ({@link ListenerRequests}); and its end, with which the requests the application never read die.
 * Called under the ID's lock.
 */
final class CmListening {
    /**
     * The largest backlog, and the one a backlog of 0 or less gets: ucma.c's {@code max_backlog}
     * (sysctl net.rdma_ucm.max_backlog, 1024 by default), which {@code ucma_listen} applies the same way.
     */
    static final int MAX_BACKLOG = 1024;

    private final SoftCmId id;
    final ListenerRequests requests;
    /** A wildcard listener's listening on every device, or null: not a wildcard, or not listening. */
    private volatile WildcardListener wildcard;

    CmListening(SoftCmId id) {
        this.id = id;
        this.requests = new ListenerRequests(id);
    }

    /** rdma_listen on the ID's device, or a wildcard's on every device. */
    void listen(PortSpace portSpace, int backlog) {
        CmIdRoute route = id.route;
        InetSocketAddress local = route.local;
        long serviceId = portSpace.serviceId(local.getPort());
        // ucma_listen: a backlog of 0 or less, or above the maximum, is the maximum.
        requests.backlog(backlog <= 0 || backlog > MAX_BACKLOG ? MAX_BACKLOG : backlog);
        if (route.wildcard()) {
            wildcard = new WildcardListener(id, portSpace, local);
            try {
                wildcard.listenOnAll();
            } catch (InvalidStateException e) {
                stop(portSpace);
                throw e;
            }
            return;
        }
        CmDevice dev = route.dev;
        try {
            id.onIo(() -> dev.listen(serviceId, id));
        } catch (InvalidStateException e) {
            throw new InvalidStateException("port " + local.getPort() + " of " + portSpace + " is already listened on "
                + dev.device.name(), e);
        }
    }

    /**
     * Stops listening on the ID's device, or a wildcard's on every device (a closed one has dropped out);
     * then, as ucma_destroy_private_ctx, the requests the application never read die with the listener
     * (REJ 28), instead of staying in the manager with nobody to answer them.
     */
    void stop(PortSpace portSpace) {
        long serviceId = portSpace.serviceId(id.route.local.getPort());
        List<CmDevice> devices = id.route.wildcard() ? wildcard.stop() : List.of(id.route.dev);
        for (CmDevice d : devices) {
            CmIoThread.runIfOpen(d, () -> d.stopListening(serviceId));
        }
        // No device reports a REQ to this listener any more: what is queued is all there is.
        for (SoftCmId child : id.eventChannel().withdrawRequests(id)) {
            child.closeUnread();
        }
    }

    /** {@code cma_add_one}: a device registered while this wildcard listener listens. Any thread. */
    void listenOn(CmDevice d) {
        wildcard.listenOn(d);
    }

    /** A device this wildcard listener may listen on closed: it drops out. */
    void deviceClosed(CmDevice d) {
        wildcard.deviceClosed(d);
    }
}
