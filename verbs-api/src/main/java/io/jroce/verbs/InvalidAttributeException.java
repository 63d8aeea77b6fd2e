package io.jroce.verbs;

/** An attribute is missing, not allowed for this transition, or out of range. */
public class InvalidAttributeException extends VerbsException {
    private static final long serialVersionUID = 1L;

    public InvalidAttributeException(String message) {
        super(message);
    }

    public InvalidAttributeException(String message, Throwable cause) {
        super(message, cause);
    }
}
