package io.jroce.tools.cmcommon;

import io.jroce.tools.UsageException;

/**
 * A jroce option's own error, or an option of the C program that jroce refuses: reported as the
 * other twins report theirs, not as the C program's usage.
 */
public final class JroceOptionException extends UsageException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong
     */
    public JroceOptionException(String message) {
        super(message);
    }
}
