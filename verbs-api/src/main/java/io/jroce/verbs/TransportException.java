package io.jroce.verbs;

/** The network transport under the device failed (socket could not be opened, bound, ...). */
public class TransportException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was wrong
     */
    public TransportException(String message) {
        super(message);
    }

    /**
     * Creates the exception with the failure that caused it.
     *
     * @param message what was wrong
     * @param cause   the underlying failure
     */
    public TransportException(String message, Throwable cause) {
        super(message, cause);
    }
}
