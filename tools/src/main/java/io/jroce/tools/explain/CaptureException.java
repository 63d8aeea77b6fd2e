package io.jroce.tools.explain;

/** A file that cannot be explained: missing, unreadable, not a capture, or cut short. The message says which. */
final class CaptureException extends Exception {
    private static final long serialVersionUID = 1L;

    CaptureException(String message) {
        super(message);
    }
}
