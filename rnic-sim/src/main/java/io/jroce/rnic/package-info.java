/**
 * The simulated RNIC's front door: {@link io.jroce.rnic.SoftRnic} opens a device on a transport.
 * The protocol engine lives in {@code core} (no sockets, no clock); {@code runtime} binds it to a
 * thread, a clock and a transport.
 */
package io.jroce.rnic;
