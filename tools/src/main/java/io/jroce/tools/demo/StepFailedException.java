package io.jroce.tools.demo;

/**
 * A demo step did not verify. {@link #fatal()} failures (a missing or failed completion, a refused
 * post) leave work or queue pairs in an unknown state, so no further step can be trusted.
 */
final class StepFailedException extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean fatal;

    StepFailedException(String message, boolean fatal) {
        super(message);
        this.fatal = fatal;
    }

    boolean fatal() {
        return fatal;
    }
}
