package io.jroce.verbs;

/** A resource cannot be destroyed while others still use it (EBUSY in libibverbs). */
public class ResourceBusyException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was wrong
     */
    public ResourceBusyException(String message) {
        super(message);
    }

    /**
     * Creates the exception with the failure that caused it.
     *
     * @param message what was wrong
     * @param cause   the underlying failure
     */
    public ResourceBusyException(String message, Throwable cause) {
        super(message, cause);
    }
}
