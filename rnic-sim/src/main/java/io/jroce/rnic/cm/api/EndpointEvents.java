package io.jroce.rnic.cm.api;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.jroce.verbs.VerbsException;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmEventType;

/**
 * The reader of a synchronous endpoint's own event channel (librdmacm's {@code ucma_complete} on
 * {@code id_priv->sync}): it takes and acknowledges the events the endpoint's calls wait for, within the
 * endpoint's timeout, which it owns, and remembers a DISCONNECTED taken on the way.
 */
final class EndpointEvents {
    private final SoftEventChannel channel;
    private final SoftCmId id;
    private volatile Duration timeout;
    /** A DISCONNECTED event was taken (the peer's DREQ, or the DREP to this side's). */
    private volatile boolean disconnected;

    EndpointEvents(SoftEventChannel channel, SoftCmId id, Duration timeout) {
        this.channel = channel;
        this.id = id;
        this.timeout = timeout;
    }

    Duration timeout() {
        return timeout;
    }

    void timeout(Duration t) {
        this.timeout = t;
    }

    /** When a wait that starts now ends. */
    long deadline() {
        return System.nanoTime() + timeout.toNanos();
    }

    /** Whether a DISCONNECTED was taken. */
    boolean disconnected() {
        return disconnected;
    }

    /** Takes events until {@code wanted}; any other outcome becomes its typed exception ({@link CmOutcomes}). */
    RdmaCmEvent await(RdmaCmEventType wanted, String call) {
        long deadline = deadline();
        while (true) {
            RdmaCmEvent e = take(deadline, call, wanted);
            if (e.type() == wanted) {
                return e;
            }
            if (e.type() == RdmaCmEventType.TIMEWAIT_EXIT) {
                continue; // the end of an earlier connection's TimeWait says nothing of this call
            }
            throw CmOutcomes.failure(call, wanted, e, id.peerAddress());
        }
    }

    /** The next event, acknowledged; a DISCONNECTED is remembered. */
    RdmaCmEvent take(long deadline, String call, RdmaCmEventType wanted) {
        try {
            long left = deadline - System.nanoTime();
            RdmaCmEvent e = left > 0 ? channel.get(left, TimeUnit.NANOSECONDS) : channel.poll();
            if (e == null) {
                throw CmOutcomes.noEvent(call, wanted, timeout.toMillis());
            }
            e.ack();
            if (e.type() == RdmaCmEventType.DISCONNECTED) {
                disconnected = true;
            }
            return e;
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new VerbsException(call + " was interrupted", ex);
        }
    }

    /** Takes the events already queued, without waiting (a peer's DREQ, a TimeWait's end). */
    void takePending() {
        RdmaCmEvent e;
        while ((e = channel.poll()) != null) {
            e.ack();
            if (e.type() == RdmaCmEventType.DISCONNECTED) {
                disconnected = true;
            }
        }
    }
}
