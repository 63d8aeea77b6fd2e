/**
 * A deterministic, in-memory, single-threaded network on a virtual clock: the second
 * implementation of {@link io.jroce.stack.transport.RoceTransport}, so that the RNIC runs on it
 * unchanged and tests drive every protocol path without sockets or wall-clock time. Each fabric
 * injects the faults of one seeded {@link io.jroce.stack.fault.FaultPolicy} and traces every
 * datagram's fate, so a failing run is replayed from its seed; it can also write its wire, as its
 * receivers' side sees it, to a pcap file in virtual time.
 *
 * <p>An entry point of jroce's API, covered by its versioning policy (docs/versioning.md).
 */
package io.jroce.stack.fabric;
