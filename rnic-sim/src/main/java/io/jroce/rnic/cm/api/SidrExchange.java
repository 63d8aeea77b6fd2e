package io.jroce.rnic.cm.api;

import io.jroce.rnic.cm.CmState;
import io.jroce.rnic.cm.SidrParams;
import io.jroce.rnic.cm.SidrReply;
import io.jroce.stack.mad.CmSidrRepFlyweight;
import io.jroce.stack.mad.CmaHeaderFlyweight;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaUdParam;

/**
 * The SIDR exchange of a UD ID (the UDP port space, IBTA 12.11) as librdmacm runs it over the kernel's
 * CM: the active side's SIDR_REQ ({@code cma_resolve_ib_udp}) and the SIDR_REP's outcome
 * ({@code cma_sidr_rep_handler}); the passive side's SIDR_REP naming its QP ({@code cma_send_sidr_rep}).
 */
final class SidrExchange {
    /** A SIDR_REQ's 216 bytes of private data less the RDMA CM header: 180 ({@code cma_user_data_offset}). */
    static final int MAX_REQ_PRIVATE_DATA = SidrParams.MAX_PRIVATE_DATA - CmaHeaderFlyweight.LENGTH;

    private final SoftCmId id;

    SidrExchange(SoftCmId id) {
        this.id = id;
    }

    /** rdma_connect on a UD ID: a SIDR_REQ for the peer's port in the UDP port space. */
    void connect(byte[] privateData) {
        CmIdRoute route = id.route;
        SidrParams sp = new SidrParams(id.portSpace().serviceId(route.peer.getPort()), route.localGid.toBytes(),
            route.peerGid.toBytes(), privateData);
        id.connecting(() -> route.dev.cm().sidrRequest(sp, route.dev));
    }

    /** A SIDR_REP's private data: at most its 136 bytes. */
    static void checkReplyData(byte[] privateData) {
        if (privateData.length > CmSidrRepFlyweight.PRIVATE_DATA_LENGTH) {
            throw new InvalidAttributeException("a SIDR_REP carries at most " + CmSidrRepFlyweight.PRIVATE_DATA_LENGTH
                + " bytes of private data, got " + privateData.length);
        }
    }

    /**
     * rdma_accept on a UD ID: a SIDR_REP of status 0 naming this ID's QP and the port space's Q_Key. The
     * passive side hears nothing more (no ESTABLISHED, as librdmacm).
     */
    void accept(byte[] privateData) {
        checkReplyData(privateData);
        CmDevice dev = id.route.dev;
        id.onIo(() -> {
            if (id.conn.state() != CmState.SIDR_REQ_RCVD) {
                throw new InvalidStateException("the SIDR request was already answered (" + id.conn.state() + ")");
            }
            dev.cm().sidrAccept(id.conn, id.qp().qpNum(), SoftCmId.RDMA_UDP_QKEY, privateData);
            dev.untrack(id.conn);
        });
        id.state(CmIdState.ESTABLISHED);
    }

    /**
     * Active: the SIDR_REP arrived: status 0 is ESTABLISHED with the peer's address, QP and Q_Key; any
     * other status UNREACHABLE with the status as the event's. A Q_Key other than the ID's (set with its
     * QP, {@code cma_set_qkey}) is ADDR_ERROR, -EINVAL. I/O thread.
     */
    void onReply(SidrReply r) {
        if (r.status() != CmSidrRepFlyweight.STATUS_SUCCESS) {
            id.events.failed(RdmaCmEventType.UNREACHABLE, r.status(), r.privateData());
            return;
        }
        if (r.qKey() != SoftCmId.RDMA_UDP_QKEY) {
            id.events.failed(RdmaCmEventType.ADDR_ERROR, SoftCmId.EINVAL, r.privateData());
            return;
        }
        // cma_sidr_rep_handler: the address handle from the route, its traffic class included
        id.events.established(r.privateData(), null, new RdmaUdParam(id.route.peerAddressVector(), r.qpn(), r.qKey()));
    }
}
