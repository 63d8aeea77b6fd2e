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

    /** @return false to drop {@code datagram}; it may also be modified in place */
    boolean deliver(FabricDatagram datagram);
}
