package io.jroce.tools.lesson;

import io.jroce.verbs.QpState;
import io.jroce.verbs.WcStatus;

/** A QP event that is no packet, in one line with its why; null for those the packets already explain. */
final class EventText {
    private EventText() {
    }

    static String of(QpEvent event) {
        String who = event.atA() ? "A" : "B";
        if (event instanceof QpEvent.Completion c) {
            return who + ": work request " + c.wrId() + " (" + c.opcode() + ") completes " + c.status()
                + (c.status() == WcStatus.SUCCESS ? ", " + c.byteLen() + " B" : "") + " -- " + why(c);
        }
        if (event instanceof QpEvent.CmEvent c) {
            return who + "'s connection manager: " + c.text();
        }
        if (event instanceof QpEvent.Observation o) {
            return who + "'s memory: " + o.text();
        }
        if (event instanceof QpEvent.StateChanged s) {
            return who + "'s QP: " + s.from() + " -> " + s.to()
                + (s.to() == QpState.ERR ? " -- a completion error moves an RC QP to the Error state (10.3.1)" : "");
        }
        return null;
    }

    private static String why(QpEvent.Completion c) {
        return switch (c.status()) {
            case SUCCESS -> c.atA() ? "B acknowledged (or answered) its last PSN"
                : "the message's last packet arrived in order and its bytes are in the receive buffer";
            case RETRY_EXC_ERR -> "the ACK timer expired once more with retry_cnt used up: transport retry counter "
                + "exceeded (9.7.6.1.3, C9-140)";
            case RNR_RETRY_EXC_ERR -> "one RNR NAK more than rnr_retry allows (9.7.5.2.8)";
            case WR_FLUSH_ERR -> "the QP is in the Error state: every work request still queued completes flushed, "
                + "unexecuted (10.3.1)";
            default -> "an error completion";
        };
    }
}
