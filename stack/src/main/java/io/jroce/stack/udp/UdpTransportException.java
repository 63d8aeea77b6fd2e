package io.jroce.stack.udp;

/** The UDP transport could not be set up: a socket could not be opened, configured or bound. */
public class UdpTransportException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what failed
     */
    public UdpTransportException(String message) {
        super(message);
    }

    /**
     * Creates the exception with the failure that caused it.
     *
     * @param message what failed
     * @param cause the underlying failure
     */
    public UdpTransportException(String message, Throwable cause) {
        super(message, cause);
    }
}
