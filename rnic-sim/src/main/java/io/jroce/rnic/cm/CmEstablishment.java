package io.jroce.rnic.cm;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.function.LongSupplier;

import org.agrona.DirectBuffer;

import io.jroce.stack.mad.CmMraFlyweight;
import io.jroce.stack.mad.CmPathFlyweight;
import io.jroce.stack.mad.CmRejFlyweight;
import io.jroce.stack.mad.CmRepFlyweight;
import io.jroce.stack.mad.CmReqFlyweight;
import io.jroce.stack.mad.CmRtuFlyweight;
import io.jroce.stack.mad.MadHeaderFlyweight;
import io.jroce.stack.stats.Counter;
import io.jroce.stack.stats.Counters;
import io.jroce.verbs.Gid;

/**
 * The establishment messages an RC connection receives (IBTA Vol. 1 12.6.5 to 12.6.9, 12.9.6), as the
 * kernel's {@code cm.c} handles them: a REQ (a new connection, a repeat, a stale one), REP, RTU, REJ and MRA.
 * The {@link ConnectionManager} hands it these MADs; the consumer's answers (accept, ready, reject) stay
 * with the manager, connection release with {@link CmConnectionRelease}. Malformed and unexpected MADs are
 * dropped and counted. I/O thread.
 */
final class CmEstablishment {
    private static final long NS_PER_MS = 1_000_000L;
    private static final byte[] NO_PRIVATE_DATA = new byte[0];

    /** The device's clock, for a stale connection's DREQ. */
    private final LongSupplier clock;
    private final CmConnectionTable table;
    private final CmTimerQueue timers;
    private final CmMessageSender sender;
    private final CmConnectionRelease release;
    private final Counters counters;
    /** The UDP port of the peers' CM (see {@link ConnectionManager}). */
    private final int peerPort;
    private final CmMessageWriter writer = new CmMessageWriter();
    /** Views of received messages. */
    private final MadHeaderFlyweight header = new MadHeaderFlyweight();
    private final CmReqFlyweight req = new CmReqFlyweight();
    private final CmRepFlyweight rep = new CmRepFlyweight();
    private final CmRtuFlyweight rtu = new CmRtuFlyweight();
    private final CmRejFlyweight rej = new CmRejFlyweight();
    private final CmMraFlyweight mra = new CmMraFlyweight();
    private final CmPathFlyweight path = new CmPathFlyweight();
    private final byte[] gidView = new byte[Gid.LENGTH];

    CmEstablishment(LongSupplier clock, CmConnectionTable table, CmTimerQueue timers, CmMessageSender sender,
                    CmConnectionRelease release, Counters counters, int peerPort) {
        this.clock = clock;
        this.table = table;
        this.timers = timers;
        this.sender = sender;
        this.release = release;
        this.counters = counters;
        this.peerPort = peerPort;
    }

    void onReq(DirectBuffer mad, byte[] peerGid, byte[] localGid) {
        req.wrap(mad, 0);
        CmConnection existing = table.byRemoteId(req.localCommId(), req.localCaGuid());
        if (existing != null) {
            onDuplicateReq(existing);
            return;
        }
        long tid = header.wrap(mad, 0).transactionId();
        CmConnection stale = table.byRemoteQp(req.localQpn(), req.localCaGuid());
        if (stale != null) {
            // cm_match_req: a new REQ from a QP that still has a connection here. The new one gets
            // REJ 10 (cm_issue_rej) and the old one is torn down with a DREQ (ib_send_cm_dreq, which
            // sends only from ESTABLISHED): the peer evidently lost it.
            counters.increment(Counter.CM_STALE_CONNECTIONS);
            issueRej(tid, req.localCommId(), CmRejFlyweight.REJECTED_REQ, CmRejFlyweight.REASON_STALE_CONN,
                localGid, peerGid);
            if (stale.state == CmState.ESTABLISHED) {
                release.sendDreq(stale, clock.getAsLong());
            }
            return;
        }
        CmEvents listener = table.listener(req.serviceId());
        if (listener == null) {
            // cm_issue_rej: no CM ID answers, so the local comm ID is 0; the REQ's TID is echoed.
            issueRej(tid, req.localCommId(), CmRejFlyweight.REJECTED_REQ, CmRejFlyweight.REASON_INVALID_SERVICE_ID,
                localGid, peerGid);
            return;
        }
        CmPathFlyweight path = req.primaryPath(this.path);
        path.getLocalPortGid(gidView, 0);
        if (!Arrays.equals(gidView, peerGid)) {
            // cm_req_handler: the path to the REQ's local port GID cannot be built (cm_init_av_by_path
            // fails, on RoCE when that address cannot be resolved): REJ 12 from REQ_RCVD (local comm ID 0),
            // with a GID of this port as additional reject information. jroce resolves no addresses: the
            // REQ's GID must be the address it came from, else answers would go to a host that never asked.
            counters.increment(Counter.CM_REJ_INVALID_GID);
            writer.rej(tid, 0, req.localCommId(), CmRejFlyweight.REJECTED_REQ, CmRejFlyweight.REASON_INVALID_GID,
                localGid, NO_PRIVATE_DATA);
            sendUnconnected(localGid, peerGid);
            return;
        }
        if (req.transportServiceType() != CmReqFlyweight.TRANSPORT_RC) {
            // UC and RD are not offered. The kernel's CM takes the REQ; the CMA's cma_check_req_qp_type
            // then fails it against the listener's RC QP type and cm_destroy_id answers REJ 28 from
            // REQ_RCVD: the peer hears at once, rather than after its REQ's retries.
            issueRej(tid, req.localCommId(), CmRejFlyweight.REJECTED_REQ, CmRejFlyweight.REASON_CONSUMER_DEFINED,
                localGid, peerGid);
            return;
        }
        CmConnection c = new CmConnection(false, table.newLocalCommId(), req.serviceId(), localGid, peerGid, peerPort,
            listener);
        c.remoteCommId = req.localCommId();
        c.remoteCaGuid = req.localCaGuid();
        c.remoteQpn = req.localQpn();
        c.tid = tid;
        // cm_req_handler: this side's messages wait the REQ's local CM response timeout, as often as it says.
        c.intervalNs = CmTimeouts.convertToMs(req.localCmResponseTimeout()) * NS_PER_MS;
        c.maxRetries = req.maxCmRetries();
        c.state = CmState.REQ_RCVD;
        table.putLocal(c);
        table.putRemote(c);
        byte[] privateData = new byte[CmReqFlyweight.PRIVATE_DATA_LENGTH];
        req.getPrivateData(privateData, 0, privateData.length);
        byte[] requestedGid = new byte[Gid.LENGTH];
        path.getRemotePortGid(requestedGid, 0);
        ConnectRequest r = new ConnectRequest(req.serviceId(), req.localQpn(), req.startingPsn(), req.initiatorDepth(),
            req.responderResources(), req.retryCount(), req.rnrRetryCount(), req.pathMtu(), req.localCaGuid(),
            privateData, requestedGid, path.trafficClass(), path.localAckTimeout());
        listener.onConnectRequest(c, r);
    }

    /** cm_dup_req_handler, with the CMA's delayed MRA armed: MRA while unanswered, REJ stale in TimeWait. */
    private void onDuplicateReq(CmConnection c) {
        switch (c.state) {
            case REQ_RCVD, MRA_REQ_SENT -> {
                c.state = CmState.MRA_REQ_SENT;
                writer.mra(c, CmMraFlyweight.MRAED_REQ);
                send(c);
            }
            case TIMEWAIT -> {
                writer.rej(c.tid, c.localCommId, c.remoteCommId, CmRejFlyweight.REJECTED_OTHER,
                    CmRejFlyweight.REASON_STALE_CONN, NO_PRIVATE_DATA);
                send(c);
            }
            default -> counters.increment(Counter.CM_DROP_UNEXPECTED); // the REP (or its retransmission) answers it
        }
    }

    void onRep(DirectBuffer mad, byte[] peerGid, byte[] localGid) {
        rep.wrap(mad, 0);
        CmConnection c = table.byLocalId(rep.remoteCommId());
        if (c == null || !c.active) {
            counters.increment(Counter.CM_DROP_UNMATCHED);
            return;
        }
        switch (c.state) {
            case REQ_SENT, MRA_REQ_RCVD -> {
                CmConnection stale = table.byRemoteQp(rep.localQpn(), rep.localCaGuid());
                if (stale != null) {
                    // cm_rep_handler: as for a REQ, REJ 10 for the REP (cm_issue_rej) and a DREQ for the
                    // old connection; the REP is dropped and this side's REQ keeps its timer.
                    counters.increment(Counter.CM_STALE_CONNECTIONS);
                    issueRej(header.wrap(mad, 0).transactionId(), rep.localCommId(), CmRejFlyweight.REJECTED_REP,
                        CmRejFlyweight.REASON_STALE_CONN, localGid, peerGid);
                    if (stale.state == CmState.ESTABLISHED) {
                        release.sendDreq(stale, clock.getAsLong());
                    }
                    return;
                }
                timers.stop(c);
                c.remoteCommId = rep.localCommId();
                c.remoteCaGuid = rep.localCaGuid();
                c.remoteQpn = rep.localQpn();
                c.state = CmState.REP_RCVD;
                table.putRemote(c);
                byte[] privateData = new byte[CmRepFlyweight.PRIVATE_DATA_LENGTH];
                rep.getPrivateData(privateData, 0, privateData.length);
                c.events.onReply(c, new ConnectReply(rep.localQpn(), rep.startingPsn(), rep.initiatorDepth(),
                    rep.responderResources(), rep.rnrRetryCount(), rep.targetAckDelay(), rep.localCaGuid(),
                    privateData));
            }
            // cm_dup_rep_handler: a repeat before the consumer answered gets the CMA's MRA, after it the RTU again.
            case REP_RCVD, MRA_REP_SENT -> {
                if (rep.localCommId() != c.remoteCommId) {
                    counters.increment(Counter.CM_DROP_UNMATCHED);
                    return;
                }
                c.state = CmState.MRA_REP_SENT;
                writer.mra(c, CmMraFlyweight.MRAED_REP);
                send(c);
            }
            case ESTABLISHED -> {
                if (rep.localCommId() != c.remoteCommId) {
                    counters.increment(Counter.CM_DROP_UNMATCHED);
                    return;
                }
                writer.rtu(c);
                send(c);
            }
            default -> counters.increment(Counter.CM_DROP_UNEXPECTED);
        }
    }

    void onRtu(DirectBuffer mad) {
        rtu.wrap(mad, 0);
        CmConnection c = table.match(rtu.remoteCommId(), rtu.localCommId());
        if (c == null) {
            return;
        }
        if (c.state != CmState.REP_SENT && c.state != CmState.MRA_REP_RCVD) {
            counters.increment(Counter.CM_DROP_UNEXPECTED); // a repeated RTU, or one after Communication Established
            return;
        }
        establishPassive(c);
    }

    /** cm_rtu_handler, cm_establish: the REP's retransmission ends and the connection is up. */
    void establishPassive(CmConnection c) {
        timers.stop(c);
        c.state = CmState.ESTABLISHED;
        c.events.onEstablished(c);
    }

    void onRej(DirectBuffer mad, long nowNs) {
        rej.wrap(mad, 0);
        // cm_acquire_rejected_id: a REJ 4 (an active side withdrawing its REQ) names its sender by comm ID
        // and, in the ARI, CA GUID; a REJ of a REQ may not know our peer's ID yet; others must match both.
        CmConnection c;
        if (rej.reason() == CmRejFlyweight.REASON_TIMEOUT) {
            c = rej.rejectInfoLength() >= Long.BYTES
                ? table.byRemoteId(rej.localCommId(), rej.buffer().getLong(
                    rej.offset() + CmRejFlyweight.ADDITIONAL_REJECT_INFO_OFFSET, ByteOrder.BIG_ENDIAN))
                : null;
            if (c == null) {
                counters.increment(Counter.CM_DROP_UNMATCHED);
                return;
            }
        } else {
            c = rej.messageRejected() == CmRejFlyweight.REJECTED_REQ
                ? table.byLocalId(rej.remoteCommId()) : table.match(rej.remoteCommId(), rej.localCommId());
            if (c == null) {
                if (rej.messageRejected() == CmRejFlyweight.REJECTED_REQ) {
                    counters.increment(Counter.CM_DROP_UNMATCHED);
                }
                return;
            }
        }
        int reason = rej.reason();
        // cm_rej_handler: before the REP was reported the connection ends at once (or, rejected as
        // stale, waits out TimeWait); after it, it always goes through TimeWait.
        switch (c.state) {
            case REQ_SENT, MRA_REQ_RCVD, REP_SENT, MRA_REP_RCVD, REQ_RCVD, MRA_REQ_SENT -> {
                if (reason == CmRejFlyweight.REASON_STALE_CONN) {
                    release.enterTimeWait(c, nowNs);
                } else {
                    table.forget(c);
                    c.state = CmState.IDLE;
                }
                c.events.onRejected(c, reason);
            }
            case REP_RCVD, MRA_REP_SENT, DREQ_SENT, ESTABLISHED -> {
                release.enterTimeWait(c, nowNs);
                c.events.onRejected(c, reason);
            }
            default -> counters.increment(Counter.CM_DROP_UNEXPECTED);
        }
    }

    void onMra(DirectBuffer mad, long nowNs) {
        mra.wrap(mad, 0);
        int mraed = mra.messageMraed();
        CmConnection c = mraed == CmMraFlyweight.MRAED_REQ
            ? table.byLocalId(mra.remoteCommId()) : table.match(mra.remoteCommId(), mra.localCommId());
        if (c == null) {
            if (mraed == CmMraFlyweight.MRAED_REQ) {
                counters.increment(Counter.CM_DROP_UNMATCHED);
            }
            return;
        }
        CmState next;
        if (mraed == CmMraFlyweight.MRAED_REQ && c.state == CmState.REQ_SENT) {
            next = CmState.MRA_REQ_RCVD;
        } else if (mraed == CmMraFlyweight.MRAED_REP && c.state == CmState.REP_SENT) {
            next = CmState.MRA_REP_RCVD;
        } else {
            counters.increment(Counter.CM_DROP_UNEXPECTED); // a repeated MRA, or one for a message not outstanding
            return;
        }
        // cm_mra_handler: the outstanding message now waits the MRA's service timeout plus the path's
        // timeout, for this wait and every retry after it (ib_modify_mad).
        c.state = next;
        c.intervalNs = CmTimeouts.mraWaitMs(mra.serviceTimeout(), CmTimeouts.PACKET_LIFE_TIME) * NS_PER_MS;
        timers.arm(c, CmConnection.Timer.RETRANSMIT, nowNs + c.intervalNs);
    }

    /** Sends the message the writer built last to the connection's peer, once. */
    private void send(CmConnection c) {
        sender.send(c, writer.buffer());
    }

    /** Sends the message the writer built last, for no connection of this side. */
    private void sendUnconnected(byte[] localGid, byte[] peerGid) {
        sender.send(writer.buffer(), localGid, peerGid);
    }

    /**
     * cm_issue_rej: a REJ no connection of this side sends (local comm ID 0: a REQ's field there is
     * reserved; for a REP it would be our own ID, which matched nothing), echoing the message's TID.
     */
    private void issueRej(long tid, int remoteCommId, int rejected, int reason, byte[] localGid, byte[] peerGid) {
        writer.rej(tid, 0, remoteCommId, rejected, reason, NO_PRIVATE_DATA);
        sendUnconnected(localGid, peerGid);
    }
}
