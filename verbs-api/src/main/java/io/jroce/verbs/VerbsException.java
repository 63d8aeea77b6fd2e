package io.jroce.verbs;

/** Base of every exception a verbs call throws; the message says what was wrong. */
public class VerbsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was wrong
     */
    public VerbsException(String message) {
        super(message);
    }

    /**
     * Creates the exception with the failure that caused it.
     *
     * @param message what was wrong
     * @param cause   the underlying failure
     */
    public VerbsException(String message, Throwable cause) {
        super(message, cause);
    }
}
