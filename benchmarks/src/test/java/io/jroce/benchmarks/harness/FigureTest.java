package io.jroce.benchmarks.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jroce.tools.perftest.report.PerftestReportParser;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The figures each side's report yields: goodput in Gb/s of payload on both, latencies as perftest reports them. */
class FigureTest {
    @Test
    void theTwinsMibPerSecondBecomesGbitsOfPayload() {
        Map<Figure, Double> f = Figure.of(PerftestReportParser.parse("""
             #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]
             65536      16000            0.00               1000.00 \t\t   0.016000
            """));
        assertEquals(1000.0 * 1024 * 1024 * 8 / 1e9, f.get(Figure.GOODPUT_GBPS), 1e-12);
        assertEquals(0.016, f.get(Figure.MPPS));
        assertEquals(2, f.size());
        assertEquals(12.5, Figure.gbps(12.5, "Gb/sec"), "--report_gbits prints Gb/s already");
    }

    @Test
    void theTwinsLatencyRowGivesTTypicalAndP99() {
        Map<Figure, Double> f = Figure.of(PerftestReportParser.parse("""
             #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec]
             64      50000          10.10          2000.00      14.70              15.00          3.00             1026.00                 1500.00
            """));
        assertEquals(14.70, f.get(Figure.MEDIAN_US));
        assertEquals(1026.00, f.get(Figure.P99_US));
        assertEquals(2, f.size());
    }

    @Test
    void theFloorsBandwidthCountsPayloadOnlyAndRoundTripsDoubleTheHalf() {
        FloorReport bw = FloorReport.parse("udp-floor bw size=4112: 14.112 Gbit/s received, 0.429 Mpps").orElseThrow();
        Map<Figure, Double> f = Figure.of(bw, FloorRun.floorStream(FloorDatagram.writeMiddle(4096), 4));
        assertEquals(14.112 * 4096 / 4112, f.get(Figure.GOODPUT_GBPS), 1e-12);
        assertEquals(0.429, f.get(Figure.MPPS));

        FloorReport pp = FloorReport.parse("udp-floor pp size=58: half round trip median 2.50 usec, p99 6.00 usec")
            .orElseThrow();
        assertEquals(2.50, Figure.of(pp, FloorRun.floorPingPong(58, 1000, false)).get(Figure.MEDIAN_US));
        Map<Figure, Double> whole = Figure.of(pp, FloorRun.floorPingPong(58, 1000, true));
        assertEquals(5.00, whole.get(Figure.MEDIAN_US));
        assertEquals(12.00, whole.get(Figure.P99_US));
    }
}
