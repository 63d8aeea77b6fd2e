package io.jroce.rnic.cm.api;

import java.util.concurrent.atomic.AtomicInteger;

import io.jroce.rnic.cm.ConnectReply;
import io.jroce.rnic.cm.SidrReply;
import io.jroce.verbs.cm.ConnParam;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaUdParam;

/**
 * An RDMA CM ID's events: what the device's manager reports (on the I/O thread, through
 * {@link CmDevice}) becomes the ID's state and an event queued to its channel; and the count of its
 * events taken from the channel and not acknowledged, librdmacm's events_reported less
 * events_completed, which close() waits for (events still queued do not count).
 */
final class CmIdEvents {
    /** UNREACHABLE's status, -ETIMEDOUT as librdmacm reports it. */
    static final int ETIMEDOUT = -110;

    private final SoftCmId id;
    private final AtomicInteger unacked = new AtomicInteger();

    CmIdEvents(SoftCmId id) {
        this.id = id;
    }

    /** Events taken and not acknowledged. */
    int unacked() {
        return unacked.get();
    }

    /** One of the ID's events was taken from the channel: it holds close() back until acknowledged. */
    void taken() {
        unacked.incrementAndGet();
    }

    /** Queues an event of the ID to its channel; its acknowledgement counts down. Any thread. */
    void post(RdmaCmEventType type, int status, SoftCmId listenId, byte[] privateData, ConnParam connParam,
              RdmaUdParam udParam) {
        id.eventChannel().post(new RdmaCmEvent(type, status, id, listenId, privateData, connParam, udParam,
            unacked::decrementAndGet));
    }

    /** Reports a connect request's ID to the application: CONNECT_REQUEST, naming {@code listener}. */
    void connectRequest(SoftCmId listener, byte[] privateData, ConnParam theirs) {
        post(RdmaCmEventType.CONNECT_REQUEST, 0, listener, privateData, theirs, null);
    }

    /** ESTABLISHED, reported with the peer's private data and parameters (RC) or address (UD). */
    void established(byte[] privateData, ConnParam theirs, RdmaUdParam ud) {
        id.state(CmIdState.ESTABLISHED);
        post(RdmaCmEventType.ESTABLISHED, 0, null, privateData, theirs, ud);
    }

    /** The connection failed: REJECTED, and {@code type} reported with {@code status}. */
    void failed(RdmaCmEventType type, int status) {
        failed(type, status, null);
    }

    void failed(RdmaCmEventType type, int status, byte[] privateData) {
        id.state(CmIdState.REJECTED);
        post(type, status, null, privateData, null, null);
    }

    // The manager's events, on the I/O thread.

    /** Active UD: the SIDR_REP arrived ({@code cma_sidr_rep_handler}). */
    void onSidrReply(SidrReply r) {
        id.sidr.onReply(r);
    }

    /** Active RC: the REP arrived. */
    void onReply(ConnectReply r) {
        id.rc.onReply(r);
    }

    void onEstablished() {
        established(id.rc.peerPrivateData(), id.rc.peerParam(), null);
    }

    void onRejected(int reason) {
        failed(RdmaCmEventType.REJECTED, reason);
    }

    void onUnreachable() {
        failed(RdmaCmEventType.UNREACHABLE, ETIMEDOUT);
    }

    void onDisconnected() {
        id.state(CmIdState.DISCONNECTED);
        post(RdmaCmEventType.DISCONNECTED, 0, null, null, null, null);
    }

    void onTimeWaitExit() {
        post(RdmaCmEventType.TIMEWAIT_EXIT, 0, null, null, null, null);
    }
}
