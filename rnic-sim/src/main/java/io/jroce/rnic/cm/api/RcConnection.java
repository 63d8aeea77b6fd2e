package io.jroce.rnic.cm.api;

import java.util.concurrent.ThreadLocalRandom;

import io.jroce.rnic.cm.AcceptParams;
import io.jroce.rnic.cm.CmState;
import io.jroce.rnic.cm.ConnectParams;
import io.jroce.rnic.cm.ConnectReply;
import io.jroce.rnic.cm.ConnectRequest;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.cm.ConnParam;
import io.jroce.verbs.cm.RdmaCmEventType;

/**
 * The connection of an RC ID (the TCP port space) as librdmacm runs it over the kernel's CM: the
 * active side's REQ, and on the REP its QP to RTR and RTS and the RTU ({@code ucma_process_conn_resp});
 * the passive side's QP to RTR and RTS before its REP ({@code rdma_accept}); and the disconnection.
 * Called under the ID's lock (the application's calls) or on the device's I/O thread (the events).
 */
final class RcConnection {
    private final SoftCmId id;
    /** The PSN this side's QP expects first, carried in its REQ or REP. */
    private int psn;
    private ConnParam param;
    /** The REQ a passive ID answers, or null. */
    private ConnectRequest request;
    private ConnParam peerParam;
    private byte[] peerPrivateData;
    private boolean disconnectCalled;

    RcConnection(SoftCmId id) {
        this.id = id;
    }

    /** The REQ of a connect request's ID. */
    void answering(ConnectRequest r) {
        request = r;
    }

    /** rdma_connect: the REQ, with {@code privateData} (the RDMA CM header first). */
    void connect(ConnParam p, byte[] privateData) {
        param = p;
        psn = ThreadLocalRandom.current().nextInt(0x1000000);
        CmIdRoute route = id.route;
        ConnectParams cp = new ConnectParams(id.portSpace().serviceId(route.peer.getPort()), route.localGid.toBytes(),
            route.peerGid.toBytes(), id.qp().qpNum(), psn, p.responderResources(), p.initiatorDepth(),
            clamp(p.retryCount()), clamp(p.rnrRetryCount()), route.pathMtu.enumValue(), privateData,
            route.trafficClass, route.packetLifeTime);
        // Before the REQ leaves: its answer may come back before onIo returns.
        id.connecting(() -> route.dev.cm().connect(cp, route.dev));
    }

    /** rdma_accept: the QP to RTR and RTS, then the REP. */
    void accept(ConnParam p) {
        if (p.privateData().length > AcceptParams.MAX_PRIVATE_DATA) {
            throw new InvalidAttributeException("a REP carries at most " + AcceptParams.MAX_PRIVATE_DATA
                + " bytes of private data, got " + p.privateData().length);
        }
        param = p;
        psn = ThreadLocalRandom.current().nextInt(0x1000000);
        CmDevice dev = id.route.dev;
        id.onIo(() -> {
            if (id.conn.state() != CmState.REQ_RCVD && id.conn.state() != CmState.MRA_REQ_SENT) {
                // The peer withdrew the request (its REJ is queued for this ID): nothing to accept.
                throw new InvalidStateException("the connect request was withdrawn by the peer (" + id.conn.state()
                    + ")");
            }
            try {
                // rdma_accept: the QP to RTR and RTS before the REP. A path MTU code beyond the largest MTU
                // (4096, code 5) cannot bring the QP to RTR (rxe_qp_chk_attr compares it with max_mtu);
                // within it, the QP runs at the smaller of it and the port's active MTU, as rxe's does.
                Mtu asked = pathMtuOf(request.pathMtu());
                Mtu mtu = asked.bytes() < dev.device.portActiveMtu().bytes() ? asked : dev.device.portActiveMtu();
                // cm_format_path_from_req: the QP's GRH takes the REQ's traffic class; the path's packet life
                // time is the REQ's local ACK timeout - 1 (not below 0), the QP's ACK timeout that + 1
                // (cm_init_av_by_path), unless the ID set one
                toRtr(request.remoteQpn(), mtu, p.responderResources(), request.trafficClass());
                toRts(request.startingPsn(), clamp(request.retryCount()), clamp(request.rnrRetryCount()),
                    p.initiatorDepth(), id.route.qpAckTimeout(Math.max(request.localAckTimeout() - 1, 0) + 1));
            } catch (VerbsException e) {
                // The CMA's own failure: REJ consumer defined.
                dev.cm().reject(id.conn, new byte[0]);
                dev.untrack(id.conn);
                id.state(CmIdState.REJECTED);
                throw e;
            }
            dev.cm().accept(id.conn, new AcceptParams(id.qp().qpNum(), psn, p.responderResources(),
                p.initiatorDepth(), clamp(p.rnrRetryCount()), p.privateData()));
            id.state(CmIdState.ACCEPTING);
        });
    }

    /** The REQ's path MTU code as an MTU; an invalid code fails as Modify QP to RTR would. */
    private static Mtu pathMtuOf(int code) {
        if (code < Mtu.MTU_256.enumValue() || code > Mtu.MTU_4096.enumValue()) {
            throw new InvalidAttributeException("the REQ's path MTU code " + code
                + " is no MTU of 256..4096 bytes: the QP cannot reach RTR");
        }
        return Mtu.fromEnum(code);
    }

    /** rdma_disconnect. */
    void disconnect() {
        if (disconnectCalled) {
            throw new InvalidStateException("rdma_disconnect was already called on this ID");
        }
        disconnectCalled = true;
        // cma_modify_qp_err: outstanding work completes flushed before the peer hears of it.
        if (id.qp() != null && id.qp().state() != QpState.ERR && id.qp().state() != QpState.RESET) {
            id.qp().modify(new QpAttributes().state(QpState.ERR));
        }
        // rdma_disconnect sends a DREQ, or the DREP to one received; when neither applies (the peer's DREP
        // or a DREQ retry expiry already ended it, or a stale REQ made this side send the DREQ) it sends
        // nothing and succeeds.
        CmDevice dev = id.route.dev;
        id.onIo(() -> {
            switch (id.conn.state()) {
                case ESTABLISHED, REP_SENT, MRA_REP_RCVD, DREQ_RCVD -> dev.cm().disconnect(id.conn);
                default -> {
                }
            }
        });
    }

    /** Active: the REP arrived; as librdmacm on CONNECT_RESPONSE: RTR, RTS, then the RTU. I/O thread. */
    void onReply(ConnectReply r) {
        CmDevice dev = id.route.dev;
        try {
            toRtr(r.remoteQpn(), id.route.pathMtu, r.responderResources(), id.route.trafficClass);
            toRts(r.startingPsn(), clamp(param.retryCount()), clamp(r.rnrRetryCount()), r.initiatorDepth(),
                id.route.qpAckTimeout(id.route.packetLifeTime + 1));
        } catch (VerbsException e) {
            dev.cm().reject(id.conn, new byte[0]);
            dev.untrack(id.conn);
            id.events.failed(RdmaCmEventType.CONNECT_ERROR, SoftCmId.EINVAL);
            return;
        }
        peerParam = new ConnParam().responderResources(r.responderResources()).initiatorDepth(r.initiatorDepth())
            .rnrRetryCount(r.rnrRetryCount());
        peerPrivateData = r.privateData();
        dev.cm().ready(id.conn); // reports onEstablished
    }

    /** ESTABLISHED's private data and parameters: the REP's on the active side, none on the passive. */
    byte[] peerPrivateData() {
        return peerPrivateData;
    }

    ConnParam peerParam() {
        return peerParam;
    }

    private void toRtr(int remoteQpn, Mtu mtu, int responderResources, int trafficClass) {
        CmQpTransitions.toRtr(id.qp(), remoteQpn, mtu, responderResources, psn,
            id.route.peerAddressVector().trafficClass(trafficClass));
    }

    private void toRts(int sqPsn, int retryCount, int rnrRetry, int initiatorDepth, int timeout) {
        CmQpTransitions.toRts(id.qp(), sqPsn, retryCount, rnrRetry, initiatorDepth, timeout);
    }

    private static int clamp(int count) {
        return Math.max(0, Math.min(7, count));
    }
}
