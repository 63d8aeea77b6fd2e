package io.jroce.rnic.cm;

import java.util.Arrays;

import org.agrona.DirectBuffer;

import io.jroce.stack.mad.CmSidrRepFlyweight;
import io.jroce.stack.mad.CmSidrReqFlyweight;
import io.jroce.stack.mad.CmTransactionId;
import io.jroce.stack.mad.MadHeaderFlyweight;
import io.jroce.stack.stats.Counter;
import io.jroce.stack.stats.Counters;

/**
 * The UD half of a device's CM: Service ID Resolution (IBTA Vol. 1 12.11), SIDR_REQ and SIDR_REP, as the
 * kernel's {@code cm.c} runs it under RDMA CM. The {@link ConnectionManager} hands it the SIDR MADs and the
 * consumer's SIDR calls; it shares the manager's tables, timer queue and sender, and its connections'
 * retransmissions expire through the manager's timer tick. I/O thread.
 */
final class CmSidr {
    private static final long NS_PER_MS = 1_000_000L;
    private static final byte[] NO_PRIVATE_DATA = new byte[0];

    private final CmConnectionTable table;
    private final CmMessageSender sender;
    private final Counters counters;
    private final int hiTid;
    private final int peerPort;
    private final CmMessageWriter writer = new CmMessageWriter();
    private final MadHeaderFlyweight header = new MadHeaderFlyweight();
    private final CmSidrReqFlyweight sidrReq = new CmSidrReqFlyweight();
    private final CmSidrRepFlyweight sidrRep = new CmSidrRepFlyweight();

    /**
     * @param hiTid    the manager's MAD agent number, the high half of its TIDs
     * @param peerPort the UDP port of the peers' CM (see {@link ConnectionManager})
     */
    CmSidr(CmConnectionTable table, CmMessageSender sender, Counters counters, int hiTid, int peerPort) {
        this.table = table;
        this.sender = sender;
        this.counters = counters;
        this.hiTid = hiTid;
        this.peerPort = peerPort;
    }

    /** See {@link ConnectionManager#sidrRequest}. */
    CmConnection request(SidrParams p, CmEvents events, long nowNs) {
        if (p.privateData().length > SidrParams.MAX_PRIVATE_DATA) {
            throw new IllegalArgumentException("a SIDR_REQ carries at most " + SidrParams.MAX_PRIVATE_DATA
                + " bytes of private data, got " + p.privateData().length);
        }
        CmConnection c = new CmConnection(true, table.newLocalCommId(), p.serviceId(), p.localGid(), p.peerGid(),
            peerPort, events);
        c.tid = CmTransactionId.form(hiTid, c.localCommId);
        c.intervalNs = CmTimeouts.sidrIntervalMs() * NS_PER_MS;
        c.maxRetries = CmTimeouts.MAX_CM_RETRIES;
        writer.sidrReq(c, p.privateData());
        writer.copyTo(c.pending);
        table.putLocal(c);
        c.state = CmState.SIDR_REQ_SENT;
        sender.sendPending(c, nowNs);
        return c;
    }

    /** See {@link ConnectionManager#sidrAccept}. */
    void accept(CmConnection c, int qpn, int qKey, byte[] privateData) {
        reply(c, CmSidrRepFlyweight.STATUS_SUCCESS, qpn, qKey, privateData);
    }

    /** See {@link ConnectionManager#sidrReject}. */
    void reject(CmConnection c, byte[] privateData) {
        reply(c, CmSidrRepFlyweight.STATUS_REJECT, 0, 0, privateData);
    }

    private void reply(CmConnection c, int status, int qpn, int qKey, byte[] privateData) {
        ConnectionManager.expect(c, CmState.SIDR_REQ_RCVD);
        if (privateData.length > CmSidrRepFlyweight.PRIVATE_DATA_LENGTH) {
            throw new IllegalArgumentException("a SIDR_REP carries at most " + CmSidrRepFlyweight.PRIVATE_DATA_LENGTH
                + " bytes of private data, got " + privateData.length);
        }
        c.localQpn = qpn & 0xFFFFFF;
        writer.sidrRep(c.tid, c.remoteCommId, c.serviceId, status, qpn, qKey, privateData);
        sender.send(c, writer.buffer());
        // cm_send_sidr_rep_locked: the ID goes back to IDLE and leaves the remote SIDR table.
        table.forget(c);
        c.state = CmState.IDLE;
    }

    /**
     * cm_sidr_req_handler: a repeat of a request still unanswered is dropped (the kernel counts it as a
     * duplicate); a service nobody listens on gets a SIDR_REP of status 1 at once, echoing the request's
     * TID, request ID and service ID; otherwise the listener hears of it.
     */
    void onSidrReq(DirectBuffer mad, byte[] peerGid, byte[] localGid) {
        sidrReq.wrap(mad, 0);
        if (table.hasSidrRequest(sidrReq.requestId(), peerGid)) {
            counters.increment(Counter.CM_DROP_UNEXPECTED);
            return;
        }
        long tid = header.wrap(mad, 0).transactionId();
        CmEvents listener = table.listener(sidrReq.serviceId());
        if (listener == null) {
            writer.sidrRep(tid, sidrReq.requestId(), sidrReq.serviceId(), CmSidrRepFlyweight.STATUS_UNSUPPORTED, 0, 0,
                NO_PRIVATE_DATA);
            sender.send(writer.buffer(), localGid, peerGid);
            return;
        }
        CmConnection c = new CmConnection(false, table.newLocalCommId(), sidrReq.serviceId(), localGid, peerGid,
            peerPort, listener);
        c.remoteCommId = sidrReq.requestId();
        c.tid = tid;
        c.state = CmState.SIDR_REQ_RCVD;
        table.putLocal(c);
        table.putSidrRequest(c);
        byte[] privateData = new byte[CmSidrReqFlyweight.PRIVATE_DATA_LENGTH];
        sidrReq.getPrivateData(privateData, 0, privateData.length);
        listener.onSidrRequest(c, new SidrRequest(sidrReq.serviceId(), sidrReq.partitionKey(), privateData));
    }

    /**
     * cm_sidr_rep_handler: the reply names its request by request ID, the requester's local ID; one that
     * matches no request, or a request already answered, is dropped. jroce also wants it from the GID the
     * request went to (the kernel does not look), so that a reply from elsewhere cannot resolve it.
     */
    void onSidrRep(DirectBuffer mad, byte[] peerGid) {
        sidrRep.wrap(mad, 0);
        if (sidrRep.additionalInfoLength() > CmSidrRepFlyweight.ADDITIONAL_INFO_LENGTH) {
            counters.increment(Counter.CM_DROP_BAD_MAD);
            return;
        }
        CmConnection c = table.byLocalId(sidrRep.requestId());
        if (c == null || !c.active || !Arrays.equals(c.peerGid, peerGid)) {
            counters.increment(Counter.CM_DROP_UNMATCHED);
            return;
        }
        if (c.state != CmState.SIDR_REQ_SENT) {
            counters.increment(Counter.CM_DROP_UNEXPECTED);
            return;
        }
        table.forget(c);
        c.state = CmState.IDLE;
        c.remoteQpn = sidrRep.qpn();
        byte[] privateData = new byte[CmSidrRepFlyweight.PRIVATE_DATA_LENGTH];
        sidrRep.getPrivateData(privateData, 0, privateData.length);
        c.events.onSidrReply(c, new SidrReply(sidrRep.status(), sidrRep.qpn(), sidrRep.qKey(), privateData));
    }
}
