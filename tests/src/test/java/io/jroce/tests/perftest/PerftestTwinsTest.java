package io.jroce.tests.perftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.tools.Commands;
import io.jroce.tools.perftest.report.BwRow;
import io.jroce.tools.perftest.report.LatencyRow;
import io.jroce.tools.perftest.report.PerftestReport;
import io.jroce.tools.perftest.report.PerftestReportParser;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each perftest twin as server and client in one JVM, on 127.0.0.1 and 127.0.0.2 with their own
 * UDP ports: both must end with status 0 and print perftest's report, whose result rows must
 * parse and count the iterations asked for. Nothing depends on how fast the run is.
 */
class PerftestTwinsTest {
    record Side(int status, String out, String err) {
    }

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
        List<Side> sides = runPair(tool, options.split(" "));
        Side server = sides.get(0);
        Side client = sides.get(1);
        String transcript = "--- server:\n" + server.out + server.err + "\n--- client:\n" + client.out + client.err;
        assertEquals(0, server.status, transcript);
        assertEquals(0, client.status, transcript);
        for (Side side : sides) {
            assertTrue(side.out.contains(" Link type       : Ethernet"), transcript);
            assertTrue(side.out.contains(" local address: LID 0000 QPN 0x"), transcript);
        }
        assertRow(client.out, bw, size, iters, transcript);
        if (serverReports) {
            assertRow(server.out, bw, size, iters, transcript);
        }
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

    private static List<Side> runPair(String tool, String... options) throws Exception {
        int tcp = freePort();
        int udpServer = freePort();
        int udpClient = freePort();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Side> server = pool.submit(() -> run(args(tool, tcp, "127.0.0.1", udpServer, udpClient, null, options)));
            Side client = null;
            // The server needs a moment to listen; the client retries until it is there.
            for (int attempt = 0; attempt < 200; attempt++) {
                Thread.sleep(100);
                client = run(args(tool, tcp, "127.0.0.2", udpClient, udpServer, "127.0.0.1", options));
                if (!client.err.contains("Couldn't connect")) {
                    break;
                }
            }
            return List.of(server.get(300, TimeUnit.SECONDS), client);
        } finally {
            pool.shutdownNow();
        }
    }

    private static List<String> args(String tool, int tcp, String bind, int udp, int peerUdp, String host,
                                     String... options) {
        List<String> a = new ArrayList<>(List.of("-p", Integer.toString(tcp), "--bind", bind, "--udp-port",
            Integer.toString(udp), "--peer-udp-port", Integer.toString(peerUdp)));
        for (String o : options) {
            if (!o.isBlank()) {
                a.add(o);
            }
        }
        if (host != null) {
            a.add(host);
        }
        a.add(0, tool);
        return a;
    }

    private static Side run(List<String> args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = Commands.find(args.get(0)).orElseThrow()
                .run(args.subList(1, args.size()), o, e);
        }
        return new Side(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
