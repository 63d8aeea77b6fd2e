package io.jroce.stack.udp;

/** The UDP transport could not be set up: a socket could not be opened, configured or bound. */
public class UdpTransportException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The text of EADDRINUSE as strerror(3) gives it, in Netty's native exceptions and in the JDK's. */
    private static final String ADDRESS_IN_USE = "Address already in use";

    /**
     * Whether the socket could not be bound because another socket holds the address and port
     * (EADDRINUSE): the JDK's {@link java.net.BindException}, or the same errno from Netty's native
     * sockets, anywhere in the cause chain.
     */
    public boolean addressInUse() {
        for (Throwable t = getCause(); t != null; t = t.getCause()) {
            if (t instanceof java.net.BindException
                || t.getMessage() != null && t.getMessage().contains(ADDRESS_IN_USE)) {
                return true;
            }
        }
        return false;
    }

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
