package io.jroce.verbs;

/** An lkey or rkey names no memory region or window of this device and protection domain. */
public class InvalidKeyException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was wrong
     */
    public InvalidKeyException(String message) {
        super(message);
    }

    /**
     * Creates the exception with the failure that caused it.
     *
     * @param message what was wrong
     * @param cause   the underlying failure
     */
    public InvalidKeyException(String message, Throwable cause) {
        super(message, cause);
    }
}
