/**
 * Fixtures shared by the system tests: devices opened on loopback with free UDP ports
 * ({@link io.jroce.tests.support.Node}), a connected pair of RC queue pairs
 * ({@link io.jroce.tests.support.RcConnection}), bounded completion waits
 * ({@link io.jroce.tests.support.Completions}). What the tests of other modules need too (connecting
 * queue pairs, data patterns, tshark) is in the test-support module ({@code io.jroce.testsupport}).
 *
 * <p>Everything here uses the public verbs API and {@code SoftRnic.builder()} only, never the RNIC's
 * internals, so the tests hold any implementation of {@code io.jroce.verbs} to the same contract.
 */
package io.jroce.tests.support;
