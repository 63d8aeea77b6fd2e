package io.jroce.verbs;

/** An lkey or rkey names no memory region or window of this device and protection domain. */
public class InvalidKeyException extends VerbsException {
    private static final long serialVersionUID = 1L;

    public InvalidKeyException(String message) {
        super(message);
    }

    public InvalidKeyException(String message, Throwable cause) {
        super(message, cause);
    }
}
