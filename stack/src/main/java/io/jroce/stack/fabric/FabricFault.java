package io.jroce.stack.fabric;

/** Decides the fate of each datagram as it is sent: the hook for loss and corruption in tests. */
@FunctionalInterface
public interface FabricFault {
    /** Delivers every datagram unchanged. */
    FabricFault NONE = d -> true;

    /** @return false to drop {@code datagram}; it may also be modified in place */
    boolean deliver(FabricDatagram datagram);
}
