package io.jroce.verbs;

/** A resource cannot be destroyed while others still use it (EBUSY in libibverbs). */
public class ResourceBusyException extends VerbsException {
    private static final long serialVersionUID = 1L;

    public ResourceBusyException(String message) {
        super(message);
    }

    public ResourceBusyException(String message, Throwable cause) {
        super(message, cause);
    }
}
