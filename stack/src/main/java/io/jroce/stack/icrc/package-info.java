/**
 * The RoCEv2 invariant CRC: computing it exactly as Linux rxe does ({@link io.jroce.stack.icrc.IcrcCalculator}),
 * and checking it on IPv4 packets whose IP ID a Java socket cannot see ({@link io.jroce.stack.icrc.Ipv4IdRecovery}).
 * Kept apart from the sockets so that captures, the simulated fabric and the UDP transport share one rule.
 *
 * <p>Internal: not part of jroce's API, so it may change in any release (docs/versioning.md).
 */
package io.jroce.stack.icrc;
