package io.jroce.benchmarks.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** udp-floor's one-line reports, as its printf calls write them, read back. */
class FloorReportTest {
    @Test
    void bwGivesGbitsAndMppsAndNoLatency() {
        FloorReport r = FloorReport.parse("udp-floor bw size=4112: 14.104 Gbit/s received, 0.429 Mpps\n").orElseThrow();
        assertEquals("bw", r.mode());
        assertEquals(4112, r.size());
        assertEquals(14.104, r.gbps());
        assertEquals(0.429, r.mpps());
        assertTrue(Double.isNaN(r.medianUs()) && Double.isNaN(r.p99Us()));
    }

    @Test
    void ppGivesTheHalfRoundTripsMedianAndP99() {
        FloorReport r = FloorReport.parse("some noise\nudp-floor pp size=80: half round trip median 2.71 usec, p99 6.20"
            + " usec (two processes, busy polling)\n").orElseThrow();
        assertEquals("pp", r.mode());
        assertEquals(80, r.size());
        assertEquals(2.71, r.medianUs());
        assertEquals(6.20, r.p99Us());
        assertTrue(Double.isNaN(r.gbps()) && Double.isNaN(r.mpps()));
    }

    @Test
    void rttIsReadToo() {
        FloorReport r = FloorReport.parse("udp-floor rtt size=96: median 9.50 usec, p99 12.25 usec (same thread both"
            + " ends: syscall cost only)").orElseThrow();
        assertEquals("rtt", r.mode());
        assertEquals(9.50, r.medianUs());
        assertEquals(12.25, r.p99Us());
    }

    @Test
    void nothingOrNanFiguresAreNoReport() {
        assertTrue(FloorReport.parse("").isEmpty());
        assertTrue(FloorReport.parse("bind: Address already in use\n").isEmpty());
        assertTrue(FloorReport.parse("udp-floor bw size=96: -nan Gbit/s received, -nan Mpps").isEmpty());
    }
}
