package io.jroce.tools.pingpong;

import java.util.List;

/**
 * A step of the ping-pong failed; the message is the line ibv_rc_pingpong prints for it, with
 * jroce's reason, and the report, if any, is what jroce adds of its own side ({@link StallReport}).
 */
final class PingpongException extends Exception {
    private static final long serialVersionUID = 1L;

    private final List<String> report;

    PingpongException(String message) {
        super(message);
        this.report = List.of();
    }

    /** {@code message}, then what {@code cause} says. */
    PingpongException(String message, Throwable cause) {
        super(cause == null || cause.getMessage() == null ? message : message + ": " + cause.getMessage(), cause);
        this.report = List.of();
    }

    private PingpongException(PingpongException failure, List<String> report) {
        super(failure.getMessage(), failure.getCause());
        this.report = List.copyOf(report);
    }

    /** This failure, reported with {@code lines} of jroce's own after the tool's line. */
    PingpongException withReport(List<String> lines) {
        return new PingpongException(this, lines);
    }

    /** What jroce adds after the tool's line: nothing unless {@link #withReport} gave it lines. */
    List<String> report() {
        return report;
    }
}
