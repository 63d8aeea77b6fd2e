package io.jroce.benchmarks.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.tools.perftest.report.PerftestReport;
import io.jroce.tools.perftest.report.PerftestReportParser;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReportParsingTest {
    @Test
    void readsTheTwinsBandwidthRow() {
        String out = """
            ---------------------------------------------------------------------------------------
             #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]
             65536      5000             224.42             118.34 \t\t   0.001893
            ---------------------------------------------------------------------------------------
            """;
        PerftestReport row = PerftestReportParser.parse(out);
        assertEquals(5000, row.iterations().orElseThrow());
        assertEquals(118.34, Metric.BW_AVERAGE.of(row));
        assertEquals(0.001893, Metric.MSG_RATE.of(row));
    }

    @Test
    void theBaselinesReportsReadBack() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        BaselineReport.bandwidth(out, 65536, 1000, 2000, 1000, false);
        PerftestReport bw = PerftestReportParser.parse(bytes.toString(StandardCharsets.UTF_8));
        assertEquals(1000, bw.iterations().orElseThrow());
        assertEquals(62.5, Metric.BW_AVERAGE.of(bw), 0.01, "65536 B x 1000/s in MiB/s");
        assertEquals(0.001, Metric.MSG_RATE.of(bw), 1e-6);

        bytes.reset();
        BaselineReport.latency(out, 64, new long[] {4000, 2000, 6000, 8000, 10_000});
        PerftestReport lat = PerftestReportParser.parse(bytes.toString(StandardCharsets.UTF_8));
        assertEquals(PerftestReport.Table.LAT, lat.table());
        assertEquals(5, lat.iterations().orElseThrow());
        assertEquals(3.0, Metric.LATENCY_TYPICAL.of(lat), 1e-9, "the median half round trip");
        assertEquals(1.0, lat.lastLatencyRow().orElseThrow().tMin(), 1e-9);
        assertEquals(5.0, lat.lastLatencyRow().orElseThrow().tMax(), 1e-9);
    }

    @Test
    void noRowNoResult() {
        assertTrue(PerftestReportParser.parse("jroce write_bw: error: Couldn't connect to 127.0.0.2:18515\n")
            .iterations().isEmpty());
    }

    @Test
    void percentilesAreNearestRank() {
        double[] sorted = new double[1000];
        for (int i = 0; i < sorted.length; i++) {
            sorted[i] = i + 1;
        }
        assertEquals(990, BaselineReport.percentile(sorted, 0.99));
        assertEquals(999, BaselineReport.percentile(sorted, 0.999));
    }

    @Test
    void findsListeningSocketsInProcNetTcp() {
        List<String> table = List.of(
            "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
            "   0: 00000000:4853 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1",
            "   1: 0100007F:1F90 0200007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 2 1");
        assertTrue(ListeningPorts.listens(table, 0x4853));
        assertEquals(false, ListeningPorts.listens(table, 0x1F90), "connected, not listening");
    }

    @Test
    void medianOfEvenAndOddCounts() {
        assertEquals(2.0, SideResult.median(3, 1, 2));
        assertEquals(2.5, SideResult.median(4, 1, 2, 3));
        assertTrue(Double.isNaN(SideResult.median(Double.NaN)));
    }
}
