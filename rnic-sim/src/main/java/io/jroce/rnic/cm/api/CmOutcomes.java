package io.jroce.rnic.cm.api;

import java.net.InetSocketAddress;

import io.jroce.verbs.cm.ConnectionRejectedException;
import io.jroce.verbs.cm.ConnectionTimeoutException;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaCmException;

/**
 * The typed exceptions of a synchronous call that did not get its event, each saying what happened:
 * librdmacm's {@code ucma_complete} turns the same events into ECONNREFUSED, ETIMEDOUT or the
 * status's errno.
 */
final class CmOutcomes {
    private CmOutcomes() {
    }

    static RdmaCmException failure(String call, RdmaCmEventType wanted, RdmaCmEvent e, InetSocketAddress peer) {
        String to = peer == null ? "" : " (peer " + peer + ")";
        return switch (e.type()) {
            case REJECTED -> new ConnectionRejectedException(call + to + ": rejected, REJ reason " + e.status() + ", "
                + ConnectionRejectedException.reasonName(e.status()), e.status(), e.privateData());
            case UNREACHABLE -> new ConnectionTimeoutException(call + to + ": unreachable, the CM's message went"
                + " unanswered through every retry (ETIMEDOUT)", RdmaCmEventType.UNREACHABLE, e.status(), 0);
            case DISCONNECTED -> new RdmaCmException(call + to + ": the peer disconnected while waiting for " + wanted,
                RdmaCmEventType.DISCONNECTED, e.status());
            case CONNECT_ERROR -> new RdmaCmException(call + to + ": CONNECT_ERROR, this side's QP could not take the"
                + " peer's values (status " + e.status() + ")", RdmaCmEventType.CONNECT_ERROR, e.status());
            default -> new RdmaCmException(call + to + ": " + e.type() + " (status " + e.status() + ") instead of "
                + wanted, e.type(), e.status());
        };
    }

    static ConnectionTimeoutException noEvent(String call, RdmaCmEventType wanted, long timeoutMs) {
        return new ConnectionTimeoutException(call + ": no " + wanted + " within " + timeoutMs + " ms", null, 0,
            timeoutMs);
    }
}
