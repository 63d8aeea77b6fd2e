package io.jroce.tools.perftest;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.tools.UsageException;
import io.jroce.tools.perftest.report.PerftestReportWriter;
import io.jroce.verbs.Gid;
import io.jroce.verbs.exchange.PerftestDest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The wire encodings and report formats of the perftest twins, against perftest's format strings. */
class PerftestFormatTest {
    private static final Gid GID = Gid.of(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff,
        (byte) 192, (byte) 168, 1, 2});

    @Test
    void addressLinesAsPerftestPrintsThem() {
        PerftestDest d = new PerftestDest(0, 16, 0x11, 0x8d4a7c, 0x204, 0x7f1d1c36b000L, GID, 0);
        assertEquals(" local address: LID 0000 QPN 0x0011 PSN 0x8d4a7c RKey 0x000204 VAddr 0x007f1d1c36b000\n"
            + " GID: 00:00:00:00:00:00:00:00:00:00:255:255:192:168:01:02", DestLines.describe(d, "local", PerftestTool.Verb.WRITE));
        assertTrue(DestLines.describe(d, "remote", PerftestTool.Verb.READ).startsWith(
            " remote address: LID 0000 QPN 0x0011 PSN 0x8d4a7c OUT 0x10 RKey 0x000204"));
        assertTrue(DestLines.describe(d, "local", PerftestTool.Verb.SEND).startsWith(" local address: LID 0000 QPN 0x0011 PSN 0x8d4a7c\n"));
    }

    @Test
    void bwRowAndHeader() {
        BwReport r = new BwReport(65536, 5000, 2355.47, 2349.85, 0.037598);
        assertEquals(" 65536      5000             2355.47            2349.85\t\t   0.037598" + System.lineSeparator(),
            r.row(false));
        assertEquals(" #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]", PerftestReportWriter.bwHeader(false));
    }

    @Test
    void bwAverageFromTimes() {
        // 1000 messages of 1 MiB in one second: 1000 MiB/s, 0.001 Mpps.
        BwReport r = BwReport.compute(1 << 20, 1000, new long[] {0}, new long[] {1_000_000_000L}, true, 1, false);
        assertEquals(1000.0, r.bwAvg(), 1e-9);
        assertEquals(0.001, r.msgRate(), 1e-12);
        assertEquals(0.0, r.bwPeak());
    }

    @Test
    void peakIgnoresUnsignaledSlots() {
        long[] posted = new long[200];
        long[] completed = new long[200];
        for (int i = 0; i < 200; i++) {
            posted[i] = 1000 + i * 10L;
        }
        completed[99] = 2000;
        completed[199] = 3000;
        BwReport r = BwReport.compute(8, 200, posted, completed, false, 100, false);
        assertTrue(r.bwPeak() > 0, "peak " + r.bwPeak());
    }

    @Test
    void latencyRowStatistics() {
        long[] posted = new long[10];
        for (int i = 0; i < 10; i++) {
            posted[i] = i * 4000L; // 4 us apart: 2 us one way
        }
        String row = LatencyReport.row(2, 10, posted, true);
        assertTrue(row.startsWith(" 2       10          2.00           2.00         2.00"), row);
    }

    @Test
    void defaultsAndForcedDependencies() throws Exception {
        PerftestParams p = params(PerftestTool.WRITE_BW);
        assertEquals(65536, p.size);
        assertEquals(5000, p.iters);
        assertEquals(1, p.cqMod); // size > 8192 disables CQ moderation
        assertEquals(128, p.txDepth);
        PerftestParams lat = params(PerftestTool.SEND_LAT);
        assertEquals(2, lat.size);
        assertEquals(512, lat.rxDepth);
        assertEquals(1, lat.txDepth);
        PerftestParams atomic = params(PerftestTool.ATOMIC_BW);
        assertEquals(8, atomic.size);
        assertEquals(100, atomic.cqMod);
        PerftestParams all = params(PerftestTool.WRITE_BW, "-a");
        assertEquals(1L << 23, all.size);
        PerftestParams d = params(PerftestTool.WRITE_BW, "-D", "4");
        assertEquals(0, d.iters);
        assertEquals(1, d.margin);
        assertTrue(d.noPeak);
    }

    @Test
    void refusalsAndPerftestsChecks() {
        // -R is implemented now (PerftestRdmaCmTest); -z, the other rdma_cm mode, is still refused
        assertTrue(assertDoesNotThrow(() -> options(PerftestTool.WRITE_BW, "-R")).flags().rdmaCm());
        UsageException e = assertThrows(UsageException.class, () -> options(PerftestTool.WRITE_BW, "-z"));
        assertTrue(e.getMessage().contains("rdma_cm"), e.getMessage());
        assertThrows(UsageException.class, () -> options(PerftestTool.WRITE_BW, "--use_cuda=0"));
        assertThrows(UsageException.class, () -> options(PerftestTool.WRITE_LAT, "-q", "2"));
        assertThrows(UsageException.class, () -> options(PerftestTool.READ_BW, "-c", "UC"));
        assertThrows(UsageException.class, () -> options(PerftestTool.WRITE_BW, "-c", "UD"));
        assertThrows(UsageException.class, () -> options(PerftestTool.READ_BW, "-I", "64"));
        assertThrows(PerftestException.class, () -> params(PerftestTool.ATOMIC_BW, "-s", "16"));
    }

    @Test
    void sizeSuffixesAndHost() throws Exception {
        PerftestOptions o = options(PerftestTool.SEND_BW, "-s", "4K", "-q2", "--report_gbits", "-c", "UD", "server");
        assertEquals(4096, o.size());
        assertEquals(2, o.numQps());
        assertTrue(o.flags().reportGbits());
        assertEquals("server", o.host());
    }

    @Test
    void versionTextIsReadAsAtof() {
        assertEquals(6.06, PerftestComm.atof("6.06\0\0\0".getBytes()), 1e-9);
        assertEquals(5.7, PerftestComm.atof("5.70-beta".getBytes()), 1e-9);
    }

    private static PerftestOptions options(PerftestTool tool, String... args) throws UsageException {
        return PerftestOptions.parse(tool, List.of(args));
    }

    private static PerftestParams params(PerftestTool tool, String... args) throws Exception {
        PrintStream sink = new PrintStream(new ByteArrayOutputStream());
        return PerftestParams.resolve(options(tool, args), sink, sink);
    }
}
