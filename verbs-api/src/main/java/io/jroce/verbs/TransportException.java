package io.jroce.verbs;

/** The network transport under the device failed (socket could not be opened, bound, ...). */
public class TransportException extends VerbsException {
    private static final long serialVersionUID = 1L;

    public TransportException(String message) {
        super(message);
    }

    public TransportException(String message, Throwable cause) {
        super(message, cause);
    }
}
