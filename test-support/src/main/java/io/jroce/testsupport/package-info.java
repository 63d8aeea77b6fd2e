/**
 * Fixtures the tests of every module share, on the verbs API only: bringing queue pairs to RTS
 * towards a peer ({@link io.jroce.testsupport.QpConnector}, {@link io.jroce.testsupport.RemoteQp})
 * and the data written and checked in registered memory ({@link io.jroce.testsupport.Patterns});
 * and tshark, the independent judge of captures ({@link io.jroce.testsupport.Tshark}), whose
 * frames' ICRCs {@code io.jroce.stack.pcap.IcrcCheck} verifies.
 * Opening devices stays with the tests (SoftRnic on the simulated fabric or on UDP).
 */
package io.jroce.testsupport;
