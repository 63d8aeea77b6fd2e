package io.jroce.rnic.cm.api;

import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.RdmaDevice;

/**
 * A synchronous endpoint's QP and CQs: the QP of its ID on the endpoint's PD, with a CQ of its own for
 * each queue the attributes name none for (librdmacm's {@code ucma_create_cqs}), which the endpoint
 * closes after the QP.
 */
final class EndpointQueues {
    private CompletionQueue sendCq;
    private CompletionQueue recvCq;
    private boolean ownsSendCq;
    private boolean ownsRecvCq;

    CompletionQueue sendCq() {
        return sendCq;
    }

    CompletionQueue recvCq() {
        return recvCq;
    }

    /** The ID's QP of a copy of {@code template} on {@code pd}; the CQs made for it are closed when it fails. */
    void create(SoftCmId id, ProtectionDomain pd, QpInitAttributes template) {
        QpInitAttributes attrs = copy(template);
        RdmaDevice device = pd.device();
        if (attrs.sendCq() == null) {
            attrs.sendCq(device.createCq(Math.max(1, attrs.maxSendWr())));
            ownsSendCq = true;
        }
        if (attrs.recvCq() == null) {
            attrs.recvCq(device.createCq(Math.max(1, attrs.maxRecvWr())));
            ownsRecvCq = true;
        }
        sendCq = attrs.sendCq();
        recvCq = attrs.recvCq();
        try {
            id.createQp(pd, attrs);
        } catch (RuntimeException e) {
            try {
                closeOwnCqs();
            } catch (RuntimeException closing) {
                e.addSuppressed(closing);
            }
            sendCq = null;
            recvCq = null;
            throw e;
        }
    }

    /** Closes the CQs this endpoint made (each, whatever the other did), after its QP is gone. */
    void closeOwnCqs() {
        RuntimeException failure = null;
        for (CompletionQueue cq : new CompletionQueue[] {ownsSendCq ? sendCq : null,
            ownsRecvCq && recvCq != sendCq ? recvCq : null}) {
            if (cq != null) {
                try {
                    cq.close();
                } catch (RuntimeException e) {
                    if (failure == null) {
                        failure = e;
                    } else {
                        failure.addSuppressed(e);
                    }
                }
            }
        }
        ownsSendCq = false;
        ownsRecvCq = false;
        if (failure != null) {
            throw failure;
        }
    }

    /** The caller's attributes are not changed: the endpoint's CQs go into a copy. */
    static QpInitAttributes copy(QpInitAttributes a) {
        return new QpInitAttributes().type(QpType.RC).sendCq(a.sendCq()).recvCq(a.recvCq()).maxSendWr(a.maxSendWr())
            .maxRecvWr(a.maxRecvWr()).maxSendSge(a.maxSendSge()).maxRecvSge(a.maxRecvSge())
            .maxInlineData(a.maxInlineData()).sqSigAll(a.sqSigAll()).srq(a.srq());
    }
}
