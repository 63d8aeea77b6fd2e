package io.jroce.verbs;

/** The request exceeds a device limit (max QPs, max SGE, max MR size, ...). */
public class ResourceLimitException extends VerbsException {
    private static final long serialVersionUID = 1L;

    public ResourceLimitException(String message) {
        super(message);
    }

    public ResourceLimitException(String message, Throwable cause) {
        super(message, cause);
    }
}
