package io.jroce.verbs.cm;

import io.jroce.verbs.VerbsException;

/**
 * A synchronous RDMA CM call ({@link RdmaEndpoint}) ended with an event other than the one it waited
 * for: the message names the event and its status, as librdmacm's {@code ucma_complete} turns them
 * into an errno. Subclasses name the common outcomes.
 */
public class RdmaCmException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /** The event that ended the call, or null. */
    private final RdmaCmEventType event;
    /** The event's status. */
    private final int status;

    /**
     * Creates the exception.
     *
     * @param message what the call was and how it ended
     * @param event  the event that ended the call, or null when none came (a local wait ran out)
     * @param status the event's status (a REJ reason, a negative errno), 0 when none
     */
    public RdmaCmException(String message, RdmaCmEventType event, int status) {
        super(message);
        this.event = event;
        this.status = status;
    }

    /**
     * Creates the exception with the failure that caused it.
     *
     * @param message what the call was and how it ended
     * @param event   the event that ended the call, or null when none came
     * @param status  the event's status, 0 when none
     * @param cause   the underlying failure
     */
    public RdmaCmException(String message, RdmaCmEventType event, int status, Throwable cause) {
        super(message, cause);
        this.event = event;
        this.status = status;
    }

    /**
     * The event that ended the call.
     *
     * @return the event, or null when none came in time
     */
    public RdmaCmEventType event() {
        return event;
    }

    /**
     * The event's status.
     *
     * @return the REJ reason for REJECTED, -110 (ETIMEDOUT) for UNREACHABLE, else 0 or a negative errno
     */
    public int status() {
        return status;
    }
}
