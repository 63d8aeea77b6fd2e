/**
 * Network faults as data: per-link {@link io.jroce.stack.fault.LinkConditions} (loss, duplication,
 * reordering, delay, jitter, corruption) and scripted {@link io.jroce.stack.fault.FaultRule}s,
 * decided for each packet by one seeded {@link io.jroce.stack.fault.FaultPolicy} and recorded in a
 * {@link io.jroce.stack.fault.PacketTrace}. Kept apart from any transport so that the simulated
 * fabric and {@link io.jroce.stack.fault.FaultInjectingTransport} (a decorator for the real UDP
 * transport) inject the same faults.
 *
 * <p>An entry point of jroce's API, covered by its versioning policy (docs/versioning.md).
 */
package io.jroce.stack.fault;
