package io.jroce.tools;

/** The command line is wrong; the message says how. */
public class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
