package io.jroce.verbs;

/** The resource is in a state that does not allow the call (EINVAL on a wrong QP state, for instance). */
public class InvalidStateException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was wrong
     */
    public InvalidStateException(String message) {
        super(message);
    }

    /**
     * Creates the exception with the failure that caused it.
     *
     * @param message what was wrong
     * @param cause   the underlying failure
     */
    public InvalidStateException(String message, Throwable cause) {
        super(message, cause);
    }
}
