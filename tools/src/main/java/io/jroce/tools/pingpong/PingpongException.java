package io.jroce.tools.pingpong;

/** A step of the ping-pong failed; the message is the line ibv_rc_pingpong prints for it, with jroce's reason. */
final class PingpongException extends Exception {
    private static final long serialVersionUID = 1L;

    PingpongException(String message) {
        super(message);
    }

    /** {@code message}, then what {@code cause} says. */
    PingpongException(String message, Throwable cause) {
        super(cause == null || cause.getMessage() == null ? message : message + ": " + cause.getMessage(), cause);
    }
}
