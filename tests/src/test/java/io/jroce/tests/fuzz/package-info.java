/**
 * Coverage-guided fuzzing of the receive path with Jazzer. {@link io.jroce.tests.fuzz.ReceivePathFuzzTest}
 * opens a victim device and its peer on a simulated fabric with connected RC, UC, UD and SRQ queue
 * pairs, injects each input's datagrams as if from the peer's address (or a stranger's, or the
 * victim's own), runs the fabric to quiescence after each one and checks the invariants: no
 * exception escapes and none is swallowed ({@code drop_internal_error}), no byte outside what a valid
 * R_Key and range (or a posted receive) allowed changes, the counters account for every datagram,
 * and a QP leaves RTS only for a packet with its QPN, from its peer, with a PSN inside its window.
 *
 * <p>By default the suite replays the committed corpus
 * ({@code src/test/resources/io/jroce/tests/fuzz/ReceivePathFuzzTestInputs/receive/}); with
 * {@code JAZZER_FUZZ=1} it fuzzes (see docs/fuzzing.md). {@link io.jroce.tests.fuzz.SeedCorpus}
 * wrote the seeds from the rxe captures and from hand-built valid packets.
 */
package io.jroce.tests.fuzz;
