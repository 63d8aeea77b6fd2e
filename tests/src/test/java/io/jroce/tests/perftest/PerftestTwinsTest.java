package io.jroce.tests.perftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.rnic.Configuration;
import io.jroce.stack.pcap.RoceFrame;
import io.jroce.tests.perftest.TwinPair.Side;
import io.jroce.tools.perftest.report.BwRow;
import io.jroce.tools.perftest.report.LatencyRow;
import io.jroce.tools.perftest.report.PerftestReport;
import io.jroce.tools.perftest.report.PerftestReportParser;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each perftest twin as server and client in one JVM, on 127.0.0.1 and 127.0.0.2 with their own
 * UDP ports: both must end with status 0 and print perftest's report, whose result rows must
 * parse and count the iterations asked for. Nothing depends on how fast the run is.
 */
class PerftestTwinsTest {
    @ParameterizedTest
    @CsvSource({
        "write_bw, -n 200, 65536, 200, true, true",
        "write_bw, -n 200 -b, 65536, 200, true, true",
        "write_bw, -n 100 -q 2 -s 1024, 1024, 200, true, true",
        "write_bw, -n 100 -c UC -s 2048, 2048, 100, true, true",
        "read_bw, -n 200, 65536, 200, true, true",
        "send_bw, -n 200, 65536, 200, true, true",
        "send_bw, -n 200 -c UD, 4096, 200, true, true",
        "atomic_bw, -n 200, 8, 200, true, true",
        "atomic_bw, -n 200 -A CMP_AND_SWAP, 8, 200, true, true",
        "write_lat, -n 50, 2, 50, false, true",
        "send_lat, -n 50, 2, 50, false, true",
        "read_lat, -n 50, 2, 50, false, false",
        "atomic_lat, -n 50, 8, 50, false, false",
    })
    void serverAndClientReport(String tool, String options, long size, long iters, boolean bw, boolean serverReports)
        throws Exception {
        List<Side> sides = TwinPair.run(tool, options.split(" "));
        Side server = sides.get(0);
        Side client = sides.get(1);
        String transcript = transcript(server, client);
        assertEquals(0, server.status(), transcript);
        assertEquals(0, client.status(), transcript);
        for (Side side : sides) {
            assertTrue(side.out().contains(" Link type       : Ethernet"), transcript);
            assertTrue(side.out().contains(" local address: LID 0000 QPN 0x"), transcript);
        }
        assertRow(client.out(), bw, size, iters, transcript);
        if (serverReports) {
            assertRow(server.out(), bw, size, iters, transcript);
        }
    }

    /**
     * --warm-up N: both sides run N iterations more than -n, on the wire (the client's capture holds
     * N + n requests of the test's opcode), and report only the -n measured ones.
     */
    @ParameterizedTest
    @CsvSource({"send_lat, 2, 4", "write_lat, 2, 10", "read_lat, 2, 12", "atomic_lat, 8, 20"})
    void warmUpIterationsGoOnTheWireButNotIntoTheReport(String tool, long size, int opcode, @TempDir Path dir)
        throws Exception {
        Path pcap = dir.resolve("client.pcap");
        List<Side> sides = TwinPair.run(tool, List.of("--pcap", pcap.toString()), "-n", "40", "--warm-up", "25");
        Side server = sides.get(0);
        Side client = sides.get(1);
        String transcript = transcript(server, client);
        assertEquals(0, server.status(), transcript);
        assertEquals(0, client.status(), transcript);
        assertRow(client.out(), false, size, 40, transcript);
        int clientIp = ByteBuffer.wrap(InetAddress.getByName("127.0.0.2").getAddress()).getInt();
        long requests = RoceFrame.read(pcap).stream()
            .filter(f -> f.srcIpv4() == clientIp && f.opcode() == opcode).count();
        assertEquals(65, requests, "the client's requests: 25 to warm up and 40 measured\n" + transcript);
    }

    /**
     * At the end of its loop a twin sends what its last poll left for its next call: the ACK of the
     * peer's last message (docs/perftest-twins.md). With the fallback window at 60 s, far beyond the
     * peer's ACK timeout (-u 14: 67 ms, 7 retries), a twin that left that ACK to its fallback
     * thread would make the peer's last operation end in RETRY_EXC_ERR: both sides must succeed,
     * and no request be sent twice (the client's capture holds both directions). send_lat and
     * send_bw fail so without the flush; write_lat and write_bw (whose last ACKs leave with a poll
     * that follows, or from a passive server's fallback thread) show that the long window leaves
     * the other loops as they were.
     */
    @ParameterizedTest
    @ValueSource(strings = {"send_lat", "write_lat", "send_bw", "write_bw"})
    void theAckOfThePeersLastMessageLeavesWhenTheLoopEnds(String tool, @TempDir Path dir) throws Exception {
        String before = System.getProperty(Configuration.INVOKER_FALLBACK_AFTER_PROP_NAME);
        System.setProperty(Configuration.INVOKER_FALLBACK_AFTER_PROP_NAME, "60000000");
        try {
            Path pcap = dir.resolve("client.pcap");
            List<Side> sides = TwinPair.run(tool, List.of("--pcap", pcap.toString()), "-n", "40");
            Side server = sides.get(0);
            Side client = sides.get(1);
            String transcript = transcript(server, client);
            assertEquals(0, server.status(), transcript);
            assertEquals(0, client.status(), transcript);
            Set<String> requests = new HashSet<>();
            for (RoceFrame f : RoceFrame.read(pcap)) {
                if (f.opcode() <= 0x0b) { // RC SEND and RDMA WRITE, every packet of a message
                    assertTrue(requests.add(f.srcIpv4() + "/" + f.psn()),
                        "a request sent twice: PSN " + f.psn() + "\n" + transcript);
                }
            }
            assertTrue(requests.size() >= 40, "the requests captured: " + requests.size() + "\n" + transcript);
        } finally {
            if (before == null) {
                System.clearProperty(Configuration.INVOKER_FALLBACK_AFTER_PROP_NAME);
            } else {
                System.setProperty(Configuration.INVOKER_FALLBACK_AFTER_PROP_NAME, before);
            }
        }
    }

    /** Both sides' output, for a failed assertion's message. */
    private static String transcript(Side server, Side client) {
        return "--- server:\n" + server.out() + server.err() + "\n--- client:\n" + client.out() + client.err();
    }

    private static void assertRow(String out, boolean bw, long size, long iters, String transcript) {
        PerftestReport report = PerftestReportParser.parse(out);
        if (bw) {
            BwRow row = report.bwRows().stream().findFirst().orElse(null);
            assertTrue(row != null, "no result row\n" + transcript);
            assertEquals(size, row.bytes(), transcript);
            assertEquals(iters, row.iterations(), transcript);
            assertTrue(row.bwAverage() > 0, "BW average\n" + transcript);
        } else {
            LatencyRow row = report.latencyRows().stream().findFirst().orElse(null);
            assertTrue(row != null, "no result row\n" + transcript);
            assertEquals(size, row.bytes(), transcript);
            assertEquals(iters, row.iterations(), transcript);
        }
    }
}
