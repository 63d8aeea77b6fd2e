package io.jroce.verbs;

/** A work queue or completion queue has no free slot (ENOMEM in libibverbs). */
public class QueueFullException extends VerbsException {
    private static final long serialVersionUID = 1L;

    public QueueFullException(String message) {
        super(message);
    }

    public QueueFullException(String message, Throwable cause) {
        super(message, cause);
    }
}
