package io.jroce.verbs;

/** Base of every exception a verbs call throws; the message says what was wrong. */
public class VerbsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public VerbsException(String message) {
        super(message);
    }

    public VerbsException(String message, Throwable cause) {
        super(message, cause);
    }
}
