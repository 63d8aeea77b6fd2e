package io.jroce.verbs;

/** The request exceeds a device limit (max QPs, max SGE, max MR size, ...). */
public class ResourceLimitException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was wrong
     */
    public ResourceLimitException(String message) {
        super(message);
    }

    /**
     * Creates the exception with the failure that caused it.
     *
     * @param message what was wrong
     * @param cause   the underlying failure
     */
    public ResourceLimitException(String message, Throwable cause) {
        super(message, cause);
    }
}
