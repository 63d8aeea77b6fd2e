package io.jroce.verbs;

/** A work queue or completion queue has no free slot (ENOMEM in libibverbs). */
public class QueueFullException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was wrong
     */
    public QueueFullException(String message) {
        super(message);
    }

    /**
     * Creates the exception with the failure that caused it.
     *
     * @param message what was wrong
     * @param cause   the underlying failure
     */
    public QueueFullException(String message, Throwable cause) {
        super(message, cause);
    }
}
