package io.jroce.rnic.cm.api;

import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.VerbsException;

/**
 * The QP transitions an RDMA CM ID makes for its application, with the attributes librdmacm and the
 * kernel give them ({@code rdma_init_qp_attr}, {@code ucma_init_ud_qp}, {@code ucma_modify_qp_rtr},
 * {@code ucma_modify_qp_rts}): INIT at {@code rdma_create_qp}, RTR and RTS before the REP or the RTU.
 */
final class CmQpTransitions {
    /** librdmacm's QP access at INIT ({@code rdma_init_qp_attr}: remote write, and read for responder resources). */
    private static final int QP_ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;
    /** The RNR NAK timer this side's QP sends (IBTA table 45: 12 = 0.64 ms, rdma_init_qp_attr's default). */
    private static final int MIN_RNR_TIMER = 12;

    private CmQpTransitions() {
    }

    /** rdma_create_qp on an RC ID: the QP, in INIT with librdmacm's access. */
    static QueuePair createRc(ProtectionDomain pd, QpInitAttributes attributes) {
        QueuePair q = pd.createQp(attributes);
        q.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).portNum(1).accessFlags(QP_ACCESS));
        return q;
    }

    /**
     * rdma_create_qp on a UD ID ({@code ucma_init_ud_qp}): INIT with the attributes the kernel gives
     * ({@code rdma_init_qp_attr}: P_Key index, port, the port space's Q_Key), then RTR, then RTS with SQ PSN 0.
     */
    static QueuePair createUd(ProtectionDomain pd, QpInitAttributes attributes, int qKey) {
        if (attributes.type() != QpType.UD) {
            throw new InvalidAttributeException("an ID of the UDP port space takes a UD QP, not " + attributes.type());
        }
        QueuePair q = pd.createQp(attributes);
        try {
            q.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).portNum(1).qkey(qKey));
            q.modify(new QpAttributes().state(QpState.RTR));
            q.modify(new QpAttributes().state(QpState.RTS).sqPsn(0));
        } catch (VerbsException e) {
            q.close();
            throw e;
        }
        return q;
    }

    /** To RTR towards the peer's QP, expecting {@code rqPsn} first. */
    static void toRtr(QueuePair qp, int remoteQpn, Mtu mtu, int responderResources, int rqPsn, AddressVector av) {
        QpAttributes rtr = new QpAttributes().state(QpState.RTR).pathMtu(mtu).destQpNum(remoteQpn).rqPsn(rqPsn)
            .addressVector(av).maxDestRdAtomic(responderResources).minRnrTimer(MIN_RNR_TIMER);
        if (responderResources > 0) {
            // the kernel's CM (cm_init_qp_init_attr) grants remote atomics with responder resources
            rtr.accessFlags(QP_ACCESS | AccessFlags.REMOTE_ATOMIC);
        }
        qp.modify(rtr);
    }

    /** To RTS with the local ACK {@code timeout}: the path's (packet life time + 1, 19 by default) or the ID's. */
    static void toRts(QueuePair qp, int sqPsn, int retryCount, int rnrRetry, int initiatorDepth, int timeout) {
        qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(sqPsn).timeout(timeout).retryCount(retryCount)
            .rnrRetry(rnrRetry).maxRdAtomic(initiatorDepth));
    }
}
