package io.jroce.verbs.cm;

/**
 * An address could not be resolved: {@code rdma_getaddrinfo} found no address for the node or
 * service, or {@code rdma_create_ep} found no open jroce device that owns the source address or
 * reaches the destination ({@link RdmaCmEventType#ADDR_ERROR}).
 */
public class AddressResolutionException extends RdmaCmException {
    private static final long serialVersionUID = 1L;

    public AddressResolutionException(String message) {
        super(message, RdmaCmEventType.ADDR_ERROR, 0);
    }

    public AddressResolutionException(String message, Throwable cause) {
        super(message, RdmaCmEventType.ADDR_ERROR, 0, cause);
    }
}
