package io.jroce.verbs.cm;

/**
 * A synchronous call got no answer: either the CM gave up ({@link RdmaCmEventType#UNREACHABLE}: the
 * REQ or REP went unanswered through every retry, status -110, librdmacm's ETIMEDOUT), or no event
 * came within the call's own bound ({@link #event()} null; see {@link RdmaEndpoint#timeout}).
 */
public class ConnectionTimeoutException extends RdmaCmException {
    private static final long serialVersionUID = 1L;

    /** The bound that ran out in milliseconds, 0 for UNREACHABLE. */
    private final long timeoutMs;

    /**
     * Creates the exception.
     *
     * @param message   what went unanswered
     * @param event     {@link RdmaCmEventType#UNREACHABLE}, or null when the call's own bound ran out
     * @param status    the event's status (-110 for UNREACHABLE), 0 when none
     * @param timeoutMs the bound that ran out in milliseconds, 0 for UNREACHABLE
     */
    public ConnectionTimeoutException(String message, RdmaCmEventType event, int status, long timeoutMs) {
        super(message, event, status);
        this.timeoutMs = timeoutMs;
    }

    /**
     * The bound that ran out.
     *
     * @return milliseconds; 0 when the CM reported UNREACHABLE
     */
    public long timeoutMs() {
        return timeoutMs;
    }
}
