package io.jroce.rnic.cm;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.jroce.rnic.core.Gsi;
import io.jroce.stack.mad.CmDrepFlyweight;
import io.jroce.stack.mad.CmDreqFlyweight;
import io.jroce.stack.mad.CmMraFlyweight;
import io.jroce.stack.mad.CmPathFlyweight;
import io.jroce.stack.mad.CmRejFlyweight;
import io.jroce.stack.mad.CmRepFlyweight;
import io.jroce.stack.mad.CmReqFlyweight;
import io.jroce.stack.mad.CmRtuFlyweight;
import io.jroce.stack.mad.CmSidrRepFlyweight;
import io.jroce.stack.mad.CmSidrReqFlyweight;
import io.jroce.stack.mad.MadHeaderFlyweight;

/**
 * Builds the CM messages a {@link ConnectionManager} sends, field by field as the kernel's
 * {@code cm_format_*} functions fill them (with the values {@code cma.c} passes on RoCE), into one
 * reused MAD buffer. Each message starts from a cleared buffer: reserved bits go out as 0.
 */
final class CmMessageWriter {
    /** The path values the CMA uses on RoCE: permissive LIDs, hop limit 64 (cma_resolve_iboe_route). */
    static final int PERMISSIVE_LID = 0xFFFF;
    static final int HOP_LIMIT = 64;
    /** The only P_Key of a RoCE port, the default partition. */
    static final int DEFAULT_PKEY = 0xFFFF;
    /** The REP's target ACK delay: the CA's ACK delay exponent, 15 as rxe reports it. */
    static final int TARGET_ACK_DELAY = 15;
    /** The CMA clamps the transport retry counts to their 3-bit fields. */
    static final int MAX_RETRY_COUNT = 7;
    private static final byte[] NO_ARI = new byte[0];

    private final UnsafeBuffer out = new UnsafeBuffer(new byte[Gsi.MAD_LENGTH]);
    private final MadHeaderFlyweight header = new MadHeaderFlyweight();
    private final CmReqFlyweight req = new CmReqFlyweight();
    private final CmPathFlyweight path = new CmPathFlyweight();
    private final CmRepFlyweight rep = new CmRepFlyweight();
    private final CmRtuFlyweight rtu = new CmRtuFlyweight();
    private final CmRejFlyweight rej = new CmRejFlyweight();
    private final CmMraFlyweight mra = new CmMraFlyweight();
    private final CmDreqFlyweight dreq = new CmDreqFlyweight();
    private final CmDrepFlyweight drep = new CmDrepFlyweight();
    private final CmSidrReqFlyweight sidrReq = new CmSidrReqFlyweight();
    private final CmSidrRepFlyweight sidrRep = new CmSidrRepFlyweight();

    /** The last message built: {@link Gsi#MAD_LENGTH} bytes from index 0. */
    DirectBuffer buffer() {
        return out;
    }

    /** Copies the last message built into {@code dst} (a connection's message to retransmit). */
    void copyTo(byte[] dst) {
        out.getBytes(0, dst);
    }

    /** A REQ (IBTA 12.6.5) as {@code cma_connect_ib} and {@code cm_format_req} fill it on RoCE. */
    void req(CmConnection c, ConnectParams p, long caGuid) {
        req.wrap(out, 0).clear();
        header.wrap(out, 0).cmSend(MadHeaderFlyweight.ATTR_REQ, c.tid);
        req.localCommId(c.localCommId).serviceId(p.serviceId()).localCaGuid(caGuid).localQKey(0)
            .localQpn(c.localQpn).responderResources(p.responderResources()).initiatorDepth(p.initiatorDepth())
            .remoteCmResponseTimeout(CmTimeouts.CM_RESPONSE_TIMEOUT)
            .transportServiceType(CmReqFlyweight.TRANSPORT_RC).endToEndFlowControl(false)
            .startingPsn(p.startingPsn() & 0xFFFFFF).localCmResponseTimeout(CmTimeouts.CM_RESPONSE_TIMEOUT)
            .retryCount(Math.min(p.retryCount(), MAX_RETRY_COUNT)).partitionKey(DEFAULT_PKEY)
            .pathMtu(p.pathMtu()).rdcExists(false).rnrRetryCount(Math.min(p.rnrRetryCount(), MAX_RETRY_COUNT))
            .maxCmRetries(CmTimeouts.MAX_CM_RETRIES).srq(false);
        req.primaryPath(path);
        path.localPortLid(PERMISSIVE_LID).remotePortLid(PERMISSIVE_LID).localPortGid(p.localGid(), 0)
            .remotePortGid(p.peerGid(), 0).flowLabel(flowLabel(p)).trafficClass(p.trafficClass()).hopLimit(HOP_LIMIT)
            .subnetLocal(false).localAckTimeout(CmTimeouts.ackTimeout(TARGET_ACK_DELAY, p.packetLifeTime()));
        req.putPrivateData(p.privateData(), 0, p.privateData().length);
    }

    /**
     * {@code cma_get_roce_udp_flow_label}: (source port * 31 + destination port), 20 bits; the source
     * port is the one the RDMA CM header carries, the destination port the service ID's.
     */
    static int flowLabel(ConnectParams p) {
        byte[] pd = p.privateData();
        int sport = pd.length >= 4 ? ((pd[2] & 0xFF) << 8) | (pd[3] & 0xFF) : 0;
        int dport = (int) (p.serviceId() & 0xFFFF);
        return (sport * 31 + dport) & 0xFFFFF;
    }

    /** A REP (IBTA 12.6.8) as {@code cma_accept_ib} and {@code cm_format_rep} fill it; the REQ's TID. */
    void rep(CmConnection c, AcceptParams p, long caGuid) {
        rep.wrap(out, 0).clear();
        header.wrap(out, 0).cmSend(MadHeaderFlyweight.ATTR_REP, c.tid);
        rep.localCommId(c.localCommId).remoteCommId(c.remoteCommId).localQKey(0).localQpn(c.localQpn)
            .startingPsn(p.startingPsn() & 0xFFFFFF).responderResources(p.responderResources())
            .initiatorDepth(p.initiatorDepth()).targetAckDelay(TARGET_ACK_DELAY).failoverAccepted(0)
            .endToEndFlowControl(false).rnrRetryCount(Math.min(p.rnrRetryCount(), MAX_RETRY_COUNT)).srq(false)
            .localCaGuid(caGuid);
        rep.putPrivateData(p.privateData(), 0, p.privateData().length);
    }

    /** An RTU (IBTA 12.6.9), with the REQ's TID. */
    void rtu(CmConnection c) {
        rtu.wrap(out, 0).clear();
        header.wrap(out, 0).cmSend(MadHeaderFlyweight.ATTR_RTU, c.tid);
        rtu.localCommId(c.localCommId).remoteCommId(c.remoteCommId);
    }

    /** A REJ (IBTA 12.6.7) without additional reject information. */
    void rej(long tid, int localCommId, int remoteCommId, int rejected, int reason, byte[] privateData) {
        rej(tid, localCommId, remoteCommId, rejected, reason, NO_ARI, privateData);
    }

    /**
     * A REJ (IBTA 12.6.7) with additional reject information {@code ari} (at most 72 bytes; its length
     * goes in the reject info length field, as {@code cm_format_rej} and {@code cm_issue_rej} set it).
     */
    void rej(long tid, int localCommId, int remoteCommId, int rejected, int reason, byte[] ari, byte[] privateData) {
        rej.wrap(out, 0).clear();
        header.wrap(out, 0).cmSend(MadHeaderFlyweight.ATTR_REJ, tid);
        rej.localCommId(localCommId).remoteCommId(remoteCommId).messageRejected(rejected)
            .rejectInfoLength(ari.length).reason(reason);
        if (ari.length > 0) {
            rej.additionalRejectInfo(new UnsafeBuffer(ari), 0, ari.length);
        }
        rej.putPrivateData(privateData, 0, privateData.length);
    }

    /** An MRA (IBTA 12.6.6) with the CMA's service timeout, with the REQ's TID. */
    void mra(CmConnection c, int mraed) {
        mra.wrap(out, 0).clear();
        header.wrap(out, 0).cmSend(MadHeaderFlyweight.ATTR_MRA, c.tid);
        mra.localCommId(c.localCommId).remoteCommId(c.remoteCommId).messageMraed(mraed)
            .serviceTimeout(CmTimeouts.MRA_SERVICE_TIMEOUT);
    }

    /** A DREQ (IBTA 12.6.10) naming the peer's QP, which the peer checks. */
    void dreq(CmConnection c, long tid) {
        dreq.wrap(out, 0).clear();
        header.wrap(out, 0).cmSend(MadHeaderFlyweight.ATTR_DREQ, tid);
        dreq.localCommId(c.localCommId).remoteCommId(c.remoteCommId).remoteQpn(c.remoteQpn);
    }

    /** A DREP (IBTA 12.6.11), with the DREQ's TID. */
    void drep(long tid, int localCommId, int remoteCommId) {
        drep.wrap(out, 0).clear();
        header.wrap(out, 0).cmSend(MadHeaderFlyweight.ATTR_DREP, tid);
        drep.localCommId(localCommId).remoteCommId(remoteCommId);
    }

    /** A SIDR_REQ (IBTA 12.11.1) as {@code cm_format_sidr_req} fills it: the request ID is the local ID. */
    void sidrReq(CmConnection c, byte[] privateData) {
        sidrReq.wrap(out, 0).clear();
        header.wrap(out, 0).cmSend(MadHeaderFlyweight.ATTR_SIDR_REQ, c.tid);
        sidrReq.requestId(c.localCommId).partitionKey(DEFAULT_PKEY).serviceId(c.serviceId);
        sidrReq.putPrivateData(privateData, 0, privateData.length);
    }

    /**
     * A SIDR_REP (IBTA 12.11.2) as {@code cm_format_sidr_rep} fills it: the request's TID, request ID
     * and service ID echoed, no additional information.
     */
    void sidrRep(long tid, int requestId, long serviceId, int status, int qpn, int qKey, byte[] privateData) {
        sidrRep.wrap(out, 0).clear();
        header.wrap(out, 0).cmSend(MadHeaderFlyweight.ATTR_SIDR_REP, tid);
        sidrRep.requestId(requestId).status(status).additionalInfoLength(0).qpn(qpn & 0xFFFFFF).serviceId(serviceId)
            .qKey(qKey);
        sidrRep.putPrivateData(privateData, 0, privateData.length);
    }
}
