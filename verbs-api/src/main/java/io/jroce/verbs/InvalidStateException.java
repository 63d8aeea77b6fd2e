package io.jroce.verbs;

/** The resource is in a state that does not allow the call (EINVAL on a wrong QP state, for instance). */
public class InvalidStateException extends VerbsException {
    private static final long serialVersionUID = 1L;

    public InvalidStateException(String message) {
        super(message);
    }

    public InvalidStateException(String message, Throwable cause) {
        super(message, cause);
    }
}
