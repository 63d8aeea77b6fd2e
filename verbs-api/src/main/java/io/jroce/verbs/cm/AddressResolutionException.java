package io.jroce.verbs.cm;

/**
 * An address could not be resolved: {@code rdma_getaddrinfo} found no address for the node or
 * service, or {@code rdma_create_ep} found no open jroce device that owns the source address or
 * reaches the destination ({@link RdmaCmEventType#ADDR_ERROR}).
 */
public class AddressResolutionException extends RdmaCmException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what could not be resolved
     */
    public AddressResolutionException(String message) {
        super(message, RdmaCmEventType.ADDR_ERROR, 0);
    }

    /**
     * Creates the exception with the failure that caused it.
     *
     * @param message what could not be resolved
     * @param cause   the underlying failure (e.g. an {@link java.net.UnknownHostException})
     */
    public AddressResolutionException(String message, Throwable cause) {
        super(message, RdmaCmEventType.ADDR_ERROR, 0, cause);
    }
}
