package io.jroce.rnic.cm.api;

import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.jroce.rnic.cm.CmConnection;
import io.jroce.rnic.cm.ConnectRequest;
import io.jroce.rnic.cm.SidrRequest;
import io.jroce.stack.mad.CmaHeaderFlyweight;
import io.jroce.stack.stats.Counter;
import io.jroce.verbs.Gid;
import io.jroce.verbs.cm.ConnParam;

/**
 * A listening ID's connect requests, as the CMA takes them ({@code cma_ib_req_handler},
 * {@code ucma_event_handler}): the CMA's own checks, the listener's backlog of CONNECT_REQUESTs not yet
 * read, and a new ID for each request taken. The requests arrive on the devices' I/O threads.
 */
final class ListenerRequests {
    private static final Logger LOG = LoggerFactory.getLogger(ListenerRequests.class);

    private final SoftCmId listener;
    /** The listener's backlog, and its CONNECT_REQUEST events queued and not yet taken from the channel. */
    private volatile int backlog;
    private final AtomicInteger requestsQueued = new AtomicInteger();

    ListenerRequests(SoftCmId listener) {
        this.listener = listener;
    }

    void backlog(int backlog) {
        this.backlog = backlog;
    }

    /**
     * On a listener: a REQ for its service, arrived on {@code dev} (a wildcard listener's may come on
     * any device, each on its I/O thread); returns the new ID, or null when the REQ was refused.
     */
    SoftCmId onConnectRequest(CmDevice dev, CmConnection c, ConnectRequest r) {
        Gid localGid = listener.localGid();
        InetSocketAddress local = listener.localAddress();
        byte[] pd = r.privateData();
        String refusal = localGid == null
            ? CmaRequestCheck.wildcardRefusal(pd, Gid.of(c.peerGid()), Gid.of(c.localGid()), r.requestedGid(),
                local.getAddress() instanceof Inet6Address, dev.gids())
            : CmaRequestCheck.refusal(pd, Gid.of(c.peerGid()), Gid.of(c.localGid()), r.requestedGid(), localGid);
        if (refusal != null) {
            LOG.debug("{}: REQ refused (REJ 28): {}", dev.device.name(), refusal);
            dev.cm().refuse(c); // cma_ib_req_handler fails before reporting: REJ 28 from REQ_RCVD
            return null;
        }
        CmaHeaderFlyweight h = new CmaHeaderFlyweight().wrap(new UnsafeBuffer(pd), 0);
        int ipVersion = h.ipVersion();
        Gid src = CmaAddresses.read(pd, CmaHeaderFlyweight.SOURCE_ADDRESS_OFFSET, ipVersion);
        if (!src.equals(Gid.of(c.peerGid()))) {
            // The application sees the header's address as the peer (peerAddress()), but the REP and the
            // QP go to the address the REQ came from: a host could claim another's address and get a
            // connection the application believes is that host's. The kernel sends its REP to the
            // address the REQ names (its primary path, cm_req_handler), so a claimed address gets the
            // REP and a blind claimant cannot answer it; here the two must agree. REJ 28, the CMA's own failure.
            dev.cm().reject(c, new byte[0]);
            return null;
        }
        if (!queueRequest()) {
            // ucma_event_handler: the listener's backlog of unread CONNECT_REQUESTs is full; -ENOMEM makes
            // cm_destroy_id forget the REQ without a REJ. Without this bound, REQs with fresh comm IDs
            // from anyone grew the heap (a connection, an ID and an event each) without limit.
            dev.cm().dropRequest(c);
            dev.device.gsi().counters().increment(Counter.CM_DROP_BACKLOG);
            return null;
        }
        Gid dst = CmaAddresses.read(pd, CmaHeaderFlyweight.DESTINATION_ADDRESS_OFFSET, ipVersion);
        Gid childGid = dev.gidIndex(dst) >= 0 ? dst : localGid;
        SoftCmId child = SoftCmId.forRequest(listener, dev, childGid, Gid.of(c.peerGid()),
            new InetSocketAddress(src.toInetAddress(), h.port()), c, r);
        ConnParam theirs = new ConnParam().responderResources(r.responderResources())
            .initiatorDepth(r.initiatorDepth()).retryCount(r.retryCount()).rnrRetryCount(r.rnrRetryCount());
        child.events.connectRequest(listener, Arrays.copyOfRange(pd, CmaHeaderFlyweight.LENGTH, pd.length), theirs);
        return child;
    }

    /**
     * On a UD listener: a SIDR_REQ for its service; returns the new ID, or null when it was refused with
     * a SIDR_REP of status 2 (the kernel's {@code cm_destroy_id} in SIDR_REQ_RCVD when
     * {@code cma_ib_req_handler} fails, a full backlog included).
     */
    SoftCmId onSidrRequest(CmDevice dev, CmConnection c, SidrRequest r) {
        Gid localGid = listener.localGid();
        InetSocketAddress local = listener.localAddress();
        byte[] pd = r.privateData();
        // A SIDR_REQ names no GID of ours: the address it arrived on stands for the requested one.
        Gid arrival = Gid.of(c.localGid());
        String refusal = localGid == null
            ? CmaRequestCheck.wildcardRefusal(pd, Gid.of(c.peerGid()), arrival, c.localGid(),
                local.getAddress() instanceof Inet6Address, dev.gids())
            : CmaRequestCheck.refusal(pd, Gid.of(c.peerGid()), arrival, c.localGid(), localGid);
        CmaHeaderFlyweight h = new CmaHeaderFlyweight().wrap(new UnsafeBuffer(pd), 0);
        if (refusal != null) {
            LOG.debug("{}: SIDR_REQ refused (status 2): {}", dev.device.name(), refusal);
            dev.cm().sidrReject(c, new byte[0]);
            return null;
        }
        if (!queueRequest()) {
            dev.cm().sidrReject(c, new byte[0]);
            dev.device.gsi().counters().increment(Counter.CM_DROP_BACKLOG);
            return null;
        }
        int ipVersion = h.ipVersion();
        Gid src = CmaAddresses.read(pd, CmaHeaderFlyweight.SOURCE_ADDRESS_OFFSET, ipVersion);
        SoftCmId child = SoftCmId.forRequest(listener, dev, localGid == null ? arrival : localGid, src,
            new InetSocketAddress(src.toInetAddress(), h.port()), c, null);
        // cma_ib_req_handler: a UD request's private data is what follows the header, 216 - 36 bytes.
        child.events.connectRequest(listener, Arrays.copyOfRange(pd, CmaHeaderFlyweight.LENGTH, pd.length),
            new ConnParam());
        return child;
    }

    /**
     * Takes a place in the backlog for a CONNECT_REQUEST; false when it is full. One count across a
     * wildcard listener's devices, whose I/O threads may race here.
     */
    private boolean queueRequest() {
        while (true) {
            int queued = requestsQueued.get();
            if (queued >= backlog) {
                return false;
            }
            if (requestsQueued.compareAndSet(queued, queued + 1)) {
                return true;
            }
        }
    }

    /** A CONNECT_REQUEST of this listener was taken from the channel: room for one more (ucma_get_event). */
    void requestTaken() {
        requestsQueued.decrementAndGet();
    }
}
