package io.jroce.verbs;

/** A scatter/gather entry lies outside its memory region or lacks the access it needs. */
public class AccessViolationException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was wrong
     */
    public AccessViolationException(String message) {
        super(message);
    }

    /**
     * Creates the exception with the failure that caused it.
     *
     * @param message what was wrong
     * @param cause   the underlying failure
     */
    public AccessViolationException(String message, Throwable cause) {
        super(message, cause);
    }
}
