/**
 * Fixtures the tests of every module share, on the verbs API only: the data written and checked in
 * registered memory ({@link io.jroce.testsupport.Patterns}); two devices' RC QPs connected, with
 * their resources, for a run in which A sends or reads ({@link io.jroce.testsupport.RcPair}; bringing
 * queue pairs to RTS is public API: {@code io.jroce.verbs.QpConnector});
 * and tshark, the independent judge of captures ({@link io.jroce.testsupport.Tshark}), whose
 * frames' ICRCs {@code io.jroce.stack.pcap.IcrcCheck} verifies.
 * Opening devices stays with the tests (SoftRnic on the simulated fabric or on UDP).
 */
package io.jroce.testsupport;
