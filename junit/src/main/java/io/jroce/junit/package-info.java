/**
 * Two connected jroce devices for a JUnit 5 test: {@link io.jroce.junit.DevicePairExtension} resolves
 * a {@link io.jroce.junit.DevicePair} parameter (two devices, each with a PD, a CQ, a registered
 * region and an RC queue pair, the two QPs in RTS towards each other), on the simulated fabric or
 * on UDP loopback as {@link io.jroce.junit.DevicePairOptions} says, closes it after the test, and
 * when the test fails adds the seed and the fabric's packet trace to the failure.
 */
package io.jroce.junit;
