package io.jroce.verbs;

/** The resource was already destroyed. */
public class ResourceClosedException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was wrong
     */
    public ResourceClosedException(String message) {
        super(message);
    }

    /**
     * Creates the exception with the failure that caused it.
     *
     * @param message what was wrong
     * @param cause   the underlying failure
     */
    public ResourceClosedException(String message, Throwable cause) {
        super(message, cause);
    }
}
