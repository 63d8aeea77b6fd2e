/**
 * The simulated RNIC's front door: {@link io.jroce.rnic.SoftRnic} opens a device on a transport.
 * The protocol engine lives in {@code core} (no sockets, no clock); {@code runtime} binds it to a
 * thread, a clock and a transport.
 *
 * <p>An entry point of jroce's API, covered by its versioning policy (docs/versioning.md).
 */
package io.jroce.rnic;
