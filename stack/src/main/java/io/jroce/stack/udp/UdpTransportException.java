package io.jroce.stack.udp;

/** The UDP transport could not be set up: a socket could not be opened, configured or bound. */
public class UdpTransportException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UdpTransportException(String message) {
        super(message);
    }

    public UdpTransportException(String message, Throwable cause) {
        super(message, cause);
    }
}
