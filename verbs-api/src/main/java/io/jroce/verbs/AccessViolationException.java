package io.jroce.verbs;

/** A scatter/gather entry lies outside its memory region or lacks the access it needs. */
public class AccessViolationException extends VerbsException {
    private static final long serialVersionUID = 1L;

    public AccessViolationException(String message) {
        super(message);
    }

    public AccessViolationException(String message, Throwable cause) {
        super(message, cause);
    }
}
