/**
 * The seam between the RNIC and the network: {@link io.jroce.stack.transport.RoceTransport} carries
 * RoCEv2 packets (BTH onwards) to and from IP endpoints. The UDP transport and the simulated
 * fabric are its two implementations.
 *
 * <p>Internal: not part of jroce's API, so it may change in any release (docs/versioning.md).
 */
package io.jroce.stack.transport;
