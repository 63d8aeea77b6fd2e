package io.jroce.verbs;

/** An attribute is missing, not allowed for this transition, or out of range. */
public class InvalidAttributeException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was wrong
     */
    public InvalidAttributeException(String message) {
        super(message);
    }

    /**
     * Creates the exception with the failure that caused it.
     *
     * @param message what was wrong
     * @param cause   the underlying failure
     */
    public InvalidAttributeException(String message, Throwable cause) {
        super(message, cause);
    }
}
