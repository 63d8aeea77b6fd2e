/**
 * Runs an RNIC core for real: on the UDP transport's Netty event loop, with {@link System#nanoTime()}
 * as its clock and a periodic tick for its timers. The only place in rnic-sim that reads a clock.
 *
 * <p>Internal: not part of jroce's API, so it may change in any release (docs/versioning.md).
 */
package io.jroce.rnic.runtime;
