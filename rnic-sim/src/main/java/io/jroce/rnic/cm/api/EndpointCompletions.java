package io.jroce.rnic.cm.api;

import java.util.concurrent.TimeUnit;

import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.cm.ConnectionTimeoutException;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaCmException;

/**
 * A synchronous endpoint's waits for a send or receive completion ({@code rdma_get_send_comp},
 * {@code rdma_get_recv_comp}), which watch the endpoint's CM events as they wait.
 */
final class EndpointCompletions {
    /** How long a completion wait sleeps on the CQ before it looks at the CM events again. */
    private static final long EVENT_CHECK_NS = TimeUnit.MILLISECONDS.toNanos(10);

    private final EndpointEvents events;

    EndpointCompletions(EndpointEvents events) {
        this.events = events;
    }

    /**
     * The next completion of {@code cq}. Between short waits on the CQ it takes the endpoint's CM
     * events, so that a peer's disconnection ends the wait rather than the bound: a completion that
     * came before the DREQ is still returned (the CQ is polled once more after the event).
     */
    WorkCompletion next(CompletionQueue cq, WorkCompletion wc, String call) {
        long deadline = events.deadline();
        try {
            while (true) {
                if (cq.poll(wc)) {
                    return wc;
                }
                events.takePending();
                if (events.disconnected()) {
                    if (cq.poll(wc)) {
                        return wc;
                    }
                    throw new RdmaCmException(call + ": the connection is disconnected and nothing"
                        + " completed", RdmaCmEventType.DISCONNECTED, 0);
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new ConnectionTimeoutException(call + ": nothing completed within "
                        + events.timeout().toMillis() + " ms", null, 0, events.timeout().toMillis());
                }
                if (cq.pollBlocking(wc, Math.min(left, EVENT_CHECK_NS), TimeUnit.NANOSECONDS)) {
                    return wc;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new VerbsException(call + " was interrupted", e);
        }
    }
}
