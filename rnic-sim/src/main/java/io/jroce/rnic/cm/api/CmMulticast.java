package io.jroce.rnic.cm.api;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.ResourceClosedException;
import io.jroce.verbs.ResourceLimitException;
import io.jroce.verbs.VerbsException;

/**
 * The multicast groups one RDMA CM ID joined (librdmacm's {@code cma_multicast} list), each with its
 * MGID and the QP attached to it, if any: join attaches the ID's QP, leave and the ID's close detach it.
 * Guarded by the ID's lock.
 */
final class CmMulticast {
    private static final Logger LOG = LoggerFactory.getLogger(CmMulticast.class);
    private static final int ENOMEM = -12;

    /** The multicast groups joined, with their MGID, and whether the ID's QP was attached to it. */
    private final Map<InetAddress, Membership> groups = new LinkedHashMap<>();

    /** One group the ID joined: its MGID, and whether the ID's QP is attached (librdmacm's cma_multicast). */
    private record Membership(Gid mgid, QueuePair attached) {
    }

    /**
     * rdma_join_multicast's checks of an ID at {@code route}: a device (a wildcard bind names none; the
     * kernel's rdma_join_multicast fails without id->device), the group's address family, a group not
     * joined yet.
     */
    void checkJoin(InetAddress group, CmIdRoute route) {
        if (route.dev == null) {
            throw new InvalidStateException("an ID bound to the wildcard " + route.local + " has no device to join "
                + group.getHostAddress() + " on: bind an address of a device, or resolve one");
        }
        if (route.localGid.isIpv4Mapped() != group instanceof Inet4Address) {
            throw new InvalidAttributeException("group " + group.getHostAddress() + " and the ID's address "
                + route.local + " are not of one address family");
        }
        if (groups.containsKey(group)) {
            throw new InvalidStateException("the ID already joined " + group.getHostAddress());
        }
    }

    /**
     * Records {@code group} as joined, attaching {@code q} (the ID's QP, or null) to {@code mgid} as
     * {@code ucma_process_join} does; returns the join's status: 0, or the attach's failure as an errno.
     */
    int join(InetAddress group, Gid mgid, QueuePair q, String deviceName) {
        int status = 0;
        if (q != null) {
            try {
                q.attachMcast(mgid, 0); // ucma_process_join: librdmacm attaches the ID's QP itself
            } catch (VerbsException e) {
                LOG.debug("{}: attaching QP 0x{} to {} failed", deviceName, Integer.toHexString(q.qpNum()), mgid, e);
                status = e instanceof ResourceLimitException ? ENOMEM : SoftCmId.EINVAL;
                q = null;
            }
        }
        groups.put(group, new Membership(mgid, q));
        return status;
    }

    /** rdma_leave_multicast: forgets {@code group} and detaches the QP attached at the join. */
    void leave(InetSocketAddress group) {
        Membership m = group.getAddress() == null ? null : groups.remove(group.getAddress());
        if (m == null) {
            throw new InvalidAttributeException("the ID did not join " + group + " (EADDRNOTAVAIL)");
        }
        detach(m);
    }

    /** rdma_destroy_id leaves the ID's groups (cma_leave_mc_groups). */
    void leaveAll() {
        for (Membership m : groups.values()) {
            detach(m);
        }
        groups.clear();
    }

    /** rdma_leave_multicast: ibv_detach_mcast of the QP attached at the join, unless it is gone meanwhile. */
    private static void detach(Membership m) {
        if (m.attached() != null) {
            try {
                m.attached().detachMcast(m.mgid(), 0);
            } catch (ResourceClosedException | InvalidAttributeException gone) {
                // The QP was destroyed (which detached it) or detached by the application.
            }
        }
    }
}
