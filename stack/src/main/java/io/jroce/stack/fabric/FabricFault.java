package io.jroce.stack.fabric;

/**
 * A test's own hook on each datagram as it is sent, before the fabric's
 * {@link io.jroce.stack.fault.FaultPolicy}: it may change the bytes in place or drop the datagram.
 * For what a policy expresses (loss, copies, delays, rules by opcode and PSN), prefer the policy,
 * whose faults are seeded and traced with their cause.
 */
@FunctionalInterface
public interface FabricFault {
    /** Delivers every datagram unchanged. */
    FabricFault NONE = d -> true;

    /**
     * Decides one datagram's fate.
     *
     * @param datagram the datagram, which may be modified in place
     * @return false to drop it
     */
    boolean deliver(FabricDatagram datagram);
}
