package io.jroce.tools;

/** The command line is wrong; the message says how. */
public class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong with the command line
     */
    public UsageException(String message) {
        super(message);
    }
}
