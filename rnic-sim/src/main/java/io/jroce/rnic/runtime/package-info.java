/**
 * Runs an RNIC core for real: on the UDP transport's Netty event loop, with {@link System#nanoTime()}
 * as its clock and a periodic tick for its timers. The only place in rnic-sim that reads a clock.
 */
package io.jroce.rnic.runtime;
