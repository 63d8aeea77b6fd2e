package io.jroce.verbs;

/**
 * A device could not be opened because its UDP port is already bound on one of its addresses:
 * another jroce device or process, or the kernel's rxe (which holds UDP 4791 on every address of the
 * host while an rxe device exists), has it.
 */
public class AddressInUseException extends TransportException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception for a port already bound.
     *
     * @param message which device, address and port, and what the transport said
     * @param cause   the transport's exception
     */
    public AddressInUseException(String message, Throwable cause) {
        super(message, cause);
    }
}
