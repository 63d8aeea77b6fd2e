package io.jroce.tools.perftest;

/** A twin cannot go on; the message is what perftest prints in that case (one line or several). */
final class PerftestException extends Exception {
    private static final long serialVersionUID = 1L;

    PerftestException(String message) {
        super(message);
    }

    PerftestException(String message, Throwable cause) {
        super(message, cause);
    }
}
