package io.jroce.benchmarks.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.tools.Main;
import io.jroce.tools.perftest.report.PerftestReport;
import io.jroce.tools.perftest.report.PerftestReportParser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Both baselines, server and client in this JVM on loopback, report every iteration. */
class BaselinePairTest {
    @Test
    void udpBwStreamsEveryMessage() throws Exception {
        PerftestReport row = pair("udp_bw", "-s", "65536", "-m", "4096", "-n", "200", "-q", "2");
        assertEquals(400, row.iterations().orElseThrow(), "both flows' messages");
        assertTrue(Metric.BW_AVERAGE.of(row) > 0);
    }

    @Test
    void udpBwReadsEveryMessage() throws Exception {
        PerftestReport row = pair("udp_bw", "--read", "-s", "10000", "-m", "1024", "-n", "100");
        assertEquals(100, row.iterations().orElseThrow());
    }

    @Test
    void udpLatAnswersEveryProbe() throws Exception {
        PerftestReport row = pair("udp_lat", "-s", "64", "-n", "300");
        assertEquals(300, row.iterations().orElseThrow());
        assertTrue(Metric.LATENCY_TYPICAL.of(row) > 0);
    }

    private static PerftestReport pair(String tool, String... test) throws Exception {
        int tcp = freePort();
        int udp = freePort();
        String[] common = {"-p", Integer.toString(tcp), "--udp-port", Integer.toString(udp)};
        CompletableFuture<Run> server = CompletableFuture.supplyAsync(() -> run(concat(
            new String[] {tool, "--bind", "127.0.0.2"}, common, test)));
        Run client = run(concat(new String[] {tool, "--bind", "127.0.0.1"}, common, test,
            new String[] {"127.0.0.2"}));
        assertEquals(0, client.status(), client.transcript());
        assertEquals(0, server.get().status(), server.get().transcript());
        return PerftestReportParser.parse(client.out());
    }

    /** One command line run in this JVM through {@link BenchMain}'s commands, with what it printed. */
    private record Run(int status, String out, String err) {
        String transcript() {
            return "exit status " + status + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    private static Run run(String[] args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            int status = Main.run(args, BenchMain.commands(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
            return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String[] concat(String[]... parts) {
        return java.util.Arrays.stream(parts).flatMap(java.util.Arrays::stream).toArray(String[]::new);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
