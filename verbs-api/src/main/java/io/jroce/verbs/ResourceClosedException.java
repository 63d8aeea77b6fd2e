package io.jroce.verbs;

/** The resource was already destroyed. */
public class ResourceClosedException extends VerbsException {
    private static final long serialVersionUID = 1L;

    public ResourceClosedException(String message) {
        super(message);
    }

    public ResourceClosedException(String message, Throwable cause) {
        super(message, cause);
    }
}
