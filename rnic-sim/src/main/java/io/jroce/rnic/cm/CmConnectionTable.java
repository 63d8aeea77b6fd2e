package io.jroce.rnic.cm;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import org.agrona.concurrent.UnsafeBuffer;

import io.jroce.stack.stats.Counter;
import io.jroce.stack.stats.Counters;

/**
 * A device's CM lookup tables (the kernel's {@code cm.local_id_table}, {@code remote_id_table},
 * {@code remote_qp_table}, {@code remote_sidr_table} and {@code listen_service_table}): the
 * connections by local comm ID, by the peer's comm ID and CA GUID, by the peer's QP and CA GUID,
 * by local QP for Communication Established, the unanswered SIDR requests, and the listeners by
 * service ID. It finds and files connections; the {@link ConnectionManager} decides when. I/O thread.
 */
final class CmConnectionTable {
    private final Random random;
    private final CmTimerQueue timers;
    private final Counters counters;
    private final Map<Integer, CmConnection> byLocalId = new HashMap<>();
    private final Map<RemoteId, CmConnection> byRemoteId = new HashMap<>();
    /** The stale-connection table ({@code cm_insert_remote_qpn}): a peer's QP, until TimeWait. */
    private final Map<RemoteQp, CmConnection> byRemoteQp = new HashMap<>();
    /** Passive connections by their QP, for Communication Established while the RTU is awaited. */
    private final Map<Integer, CmConnection> byLocalQpn = new HashMap<>();
    private final Map<Long, CmEvents> listeners = new HashMap<>();
    /**
     * Passive SIDR requests not yet answered ({@code cm_insert_remote_sidr}), by request ID and the
     * requester's GID: a repeat while unanswered is dropped; once answered, a repeat is a new request.
     */
    private final Map<RemoteSidr, CmConnection> bySidrRequest = new HashMap<>();

    /** The kernel's stale-connection and duplicate tables key a peer's connection on these two. */
    private record RemoteId(int commId, long caGuid) {
    }

    /** The kernel's second table keys a peer's connection on its QP and CA GUID. */
    private record RemoteQp(int qpn, long caGuid) {
    }

    /**
     * A peer's SIDR request. The kernel keys it on the request ID and the requester's LID (0 on RoCE:
     * {@code cm_insert_remote_sidr}, {@code sidr_slid}), so two hosts that draw one request ID collide
     * there; jroce keys on the requester's GID instead, which keeps them apart.
     */
    private record RemoteSidr(int requestId, long gidHigh, long gidLow) {
        static RemoteSidr of(int requestId, byte[] gid) {
            UnsafeBuffer b = new UnsafeBuffer(gid);
            return new RemoteSidr(requestId, b.getLong(0), b.getLong(8));
        }
    }

    /**
     * @param random the source of the local comm IDs
     * @param timers the queue a forgotten connection leaves
     * @param counters where a message that names no connection is counted
     */
    CmConnectionTable(Random random, CmTimerQueue timers, Counters counters) {
        this.random = random;
        this.timers = timers;
        this.counters = counters;
    }

    /** The connections held, TimeWait included. */
    int size() {
        return byLocalId.size();
    }

    CmConnection byLocalId(int localCommId) {
        return byLocalId.get(localCommId);
    }

    /** The connection both IDs name, or null (counted). */
    CmConnection match(int localCommId, int remoteCommId) {
        CmConnection c = byLocalId.get(localCommId);
        if (c == null || c.remoteCommId != remoteCommId) {
            counters.increment(Counter.CM_DROP_UNMATCHED);
            return null;
        }
        return c;
    }

    /** Whether {@code c} is still the connection filed under its local comm ID (not forgotten). */
    boolean holds(CmConnection c) {
        return byLocalId.get(c.localCommId) == c;
    }

    void putLocal(CmConnection c) {
        byLocalId.put(c.localCommId, c);
    }

    CmConnection byRemoteId(int remoteCommId, long remoteCaGuid) {
        return byRemoteId.get(new RemoteId(remoteCommId, remoteCaGuid));
    }

    CmConnection byRemoteQp(int remoteQpn, long remoteCaGuid) {
        return byRemoteQp.get(new RemoteQp(remoteQpn, remoteCaGuid));
    }

    /** Files {@code c} under the peer's comm ID and QP, each with the peer's CA GUID. */
    void putRemote(CmConnection c) {
        byRemoteId.put(new RemoteId(c.remoteCommId, c.remoteCaGuid), c);
        byRemoteQp.put(new RemoteQp(c.remoteQpn, c.remoteCaGuid), c);
    }

    /** Takes the peer's QP out of the stale-connection table ({@code cm_remove_remote}). */
    void removeRemoteQp(CmConnection c) {
        byRemoteQp.remove(new RemoteQp(c.remoteQpn, c.remoteCaGuid), c);
    }

    CmConnection byLocalQpn(int qpn) {
        return byLocalQpn.get(qpn);
    }

    void putLocalQpn(CmConnection c) {
        byLocalQpn.put(c.localQpn, c);
    }

    /** Whether the peer's SIDR request {@code requestId} from {@code peerGid} is filed, still unanswered. */
    boolean hasSidrRequest(int requestId, byte[] peerGid) {
        return bySidrRequest.containsKey(RemoteSidr.of(requestId, peerGid));
    }

    /** Files a passive SIDR request under its request ID (the connection's remote comm ID) and the peer's GID. */
    void putSidrRequest(CmConnection c) {
        bySidrRequest.put(RemoteSidr.of(c.remoteCommId, c.peerGid), c);
    }

    CmEvents listener(long serviceId) {
        return listeners.get(serviceId);
    }

    void listen(long serviceId, CmEvents events) {
        if (listeners.putIfAbsent(serviceId, events) != null) {
            throw new IllegalStateException("service 0x" + Long.toHexString(serviceId) + " is already listened");
        }
    }

    void stopListening(long serviceId) {
        listeners.remove(serviceId);
    }

    /** Stops {@code c}'s timer and takes it out of every table it is in. */
    void forget(CmConnection c) {
        timers.cancel(c); // a forgotten connection must not stay reachable from the timer queue
        byLocalId.remove(c.localCommId, c);
        if (c.remoteCommId != 0 || !c.active) {
            byRemoteId.remove(new RemoteId(c.remoteCommId, c.remoteCaGuid), c);
            byRemoteQp.remove(new RemoteQp(c.remoteQpn, c.remoteCaGuid), c);
        }
        byLocalQpn.remove(c.localQpn, c);
        if (c.state == CmState.SIDR_REQ_RCVD) {
            bySidrRequest.remove(RemoteSidr.of(c.remoteCommId, c.peerGid), c);
        }
    }

    /** A random comm ID, non-zero (0 means none in a REJ) and unused among the live connections. */
    int newLocalCommId() {
        int id;
        do {
            id = random.nextInt();
        } while (id == 0 || byLocalId.containsKey(id));
        return id;
    }
}
