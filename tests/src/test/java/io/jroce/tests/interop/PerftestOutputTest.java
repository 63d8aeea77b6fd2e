package io.jroce.tests.interop;

import io.jroce.tools.perftest.report.BwRow;
import io.jroce.tools.perftest.report.LatencyRow;
import io.jroce.tools.perftest.report.PerftestReport;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link PerftestOutput} on the samples of real perftest (two rxe guests, 172.17.0.3 the client,
 * 172.17.0.2 the server: src/test/resources/perftest/), and {@link PerftestRxeTest}'s checks on
 * them: what the interop test demands of jroce against perftest holds for perftest against itself.
 * Needs no lab.
 */
class PerftestOutputTest {
    private static final String CLIENT_GID = "00:00:00:00:00:00:00:00:00:00:255:255:172:17:00:03";
    private static final String SERVER_GID = "00:00:00:00:00:00:00:00:00:00:255:255:172:17:00:02";

    @TestFactory
    Stream<DynamicTest> theInteropChecksHoldForPerftestAgainstItself() {
        return PerftestRxeTest.STEPS.stream().map(step -> DynamicTest.dynamicTest(step.toString(), () -> {
            PerftestOutput client = PerftestRxeTest.sample(step.id() + "-client.txt");
            PerftestOutput server = PerftestRxeTest.sample(step.id() + "-server.txt");
            PerftestRxeTest.check(step, client, 0, server, 0, CLIENT_GID, SERVER_GID, null,
                step + "\n--- client:\n" + client + "\n--- server:\n" + server);
        }));
    }

    @Test
    void writeBwClient() {
        PerftestOutput o = PerftestRxeTest.sample("write_bw-client.txt");
        assertEquals("RDMA_Write BW Test", o.title());
        assertEquals("rxe0", o.parameters().get("Device"));
        assertEquals("1", o.parameters().get("Number of qps"));
        assertEquals("IB", o.parameters().get("Transport type"));
        assertEquals("OFF", o.parameters().get("rdma_cm QPs"));
        assertEquals("100", o.parameters().get("TX depth"));
        assertEquals("1024[B]", o.parameters().get("Mtu"));
        assertEquals(List.of("Dual-port", "Device", "Number of qps", "Transport type", "Connection type", "Using SRQ",
                "PCIe relax order", "ibv_wr* API", "TX depth", "CQ Moderation", "Mtu", "Link type", "GID index",
                "Max inline data", "rdma_cm QPs", "Data ex. method"),
            List.copyOf(o.parameters().keySet()));
        assertEquals(1, o.localAddresses().size());
        assertTrue(o.localAddresses().get(0).fields().matches(
            "LID 0000 QPN 0x[0-9a-f]{4} PSN 0x[0-9a-f]{6} RKey 0x[0-9a-f]{6} VAddr 0x[0-9a-f]{14}"), o.toString());
        assertEquals(CLIENT_GID, o.localAddresses().get(0).gid());
        assertEquals(SERVER_GID, o.remoteAddresses().get(0).gid());
        assertEquals(PerftestReport.Table.BW, o.table());
        assertEquals("MB/sec", o.bwUnit());
        BwRow r = o.bwRows().get(0);
        assertEquals(65536, r.bytes());
        assertEquals(100, r.iterations());
        assertTrue(r.bwAverage() > 0 && r.msgRateMpps() > 0);
    }

    @Test
    void latencyRowsWithNan() {
        PerftestOutput o = PerftestRxeTest.sample("write_lat-server.txt");
        assertEquals(PerftestReport.Table.LAT, o.table());
        LatencyRow r = o.latRows().get(0);
        assertEquals(2, r.bytes());
        assertEquals(200, r.iterations());
        assertTrue(Double.isNaN(r.tStdev()), r.text()); // this sample printed -nan
        assertTrue(r.tMin() <= r.tTypical() && r.tTypical() <= r.tMax());
    }

    @Test
    void readLatServerPrintsNoTable() {
        PerftestOutput o = PerftestRxeTest.sample("read_lat-server.txt");
        assertEquals("RDMA_Read Latency Test", o.title());
        assertTrue(o.waitingBox());
        assertEquals(PerftestReport.Table.NONE, o.table());
        assertNull(o.tableHeader());
        assertTrue(o.localAddresses().get(0).fields().contains(" OUT 0x80 "), o.toString());
    }

    @Test
    void gbitsAndTwoQps() {
        PerftestOutput g = PerftestRxeTest.sample("write_bw-s1-report_gbits-server.txt");
        assertEquals("Gb/sec", g.bwUnit());
        assertTrue(PerftestOutput.bwConsistentWithRate(g.bwRows().get(0), "Gb/sec"), g.bwRows().get(0).text());
        PerftestOutput q = PerftestRxeTest.sample("send_bw-s1-q2-inline-client.txt");
        assertEquals(2, q.localAddresses().size());
        assertEquals(2, q.remoteAddresses().size());
        assertEquals(200, q.bwRows().get(0).iterations());
    }

    /** What ib_write_bw printed as a client when its clock calibration failed under TCG (a lab run). */
    @Test
    void uncalibratedClock() {
        PerftestOutput o = PerftestOutput.parse(List.of(
            "Correlation coefficient r^2: 0.722323 < 0.9",
            "---------------------------------------------------------------------------------------",
            "                    RDMA_Write BW Test",
            " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]",
            " 1          100           0.000000            0.000000            0.000000"));
        assertTrue(o.clockUncalibrated());
        assertEquals(100, o.bwRows().get(0).iterations());
        assertEquals(0.0, o.bwRows().get(0).msgRateMpps());
        PerftestOutput lat = PerftestOutput.parse(List.of(
            " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] ",
            " 2       200          inf         inf      inf   \t       inf     \t-nan   \t\tinf \t\tinf"));
        assertEquals(Double.POSITIVE_INFINITY, lat.latRows().get(0).tMin());
        assertTrue(Double.isNaN(lat.latRows().get(0).tStdev()));
        assertTrue(!PerftestRxeTest.sample("write_bw-client.txt").clockUncalibrated());
    }

    @Test
    void ipv4Gid() {
        assertEquals("00:00:00:00:00:00:00:00:00:00:255:255:172:17:00:01", PerftestOutput.ipv4Gid("172.17.0.1"));
        assertEquals("00:00:00:00:00:00:00:00:00:00:255:255:10:200:03:254", PerftestOutput.ipv4Gid("10.200.3.254"));
    }
}
