package io.jroce.tests.interop;

import io.jroce.testcontainers.GuestResult;
import io.jroce.testcontainers.RxePeer;
import io.jroce.testcontainers.RxeNetwork;
import io.jroce.testcontainers.RequiresRxePeer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jroce uc_pingpong}, {@code ud_pingpong} and {@code srq_pingpong} on this host against
 * rdma-core's ibv_uc_pingpong, ibv_ud_pingpong and ibv_srq_pingpong on real rxe in a guest, in both
 * roles, over IPv4 (GID 1 in the guest, the host's bridge address for jroce) and over global
 * IPv6 (GID 2 in the guest, the host's IPv6 address on the bridge; one guest for all six runs),
 * each with the tool's default message size (rxe's active MTU on a 1500-byte network is 1024,
 * which ud_pingpong's 1024 fits). Beside the exit statuses and byte counts, every line jroce prints must have the shape of a
 * line the real tool printed in the same run (ud_pingpong's local line has ": GID", srq_pingpong
 * prints one address line per QP). Each test has a network of its own, as in
 * {@link RcPingpongRxeTest}.
 */
@RequiresRxePeer
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class PingpongTwinsRxeTest {
    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Duration RUN = Duration.ofMinutes(4);
    /** jroce's --timeout: a lost peer ends the run instead of hanging it (a guard). */
    private static final String PEER_SILENCE_S = "120";
    private static final int ITERS = 20;

    private static final Pattern BYTES = Pattern.compile("(\\d+) bytes in \\d+\\.\\d+ seconds = \\d+\\.\\d+ Mbit/sec");
    private static final Pattern ITERS_LINE =
        Pattern.compile("(\\d+) iters in \\d+\\.\\d+ seconds = \\d+\\.\\d+ usec/iter");

    /** rxe's tool connects to a jroce server on the host's IPv4 address on the bridge. */
    @ParameterizedTest(name = "ibv_{0} client, jroce {0} server")
    @CsvSource({"uc_pingpong, 4096, 1", "ud_pingpong, 1024, 1", "srq_pingpong, 4096, 16"})
    void rxeClientAgainstJroceServerOverIpv4(String tool, int size, int qps) throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (RxeNetwork network = RxeNetwork.builder().create()) {
            String host = network.hostIpv4();
            JroceCommand server = JroceCommand.start(pool, tool, "--bind", host, "-g", "0", "-n",
                Integer.toString(ITERS), "--timeout", PEER_SILENCE_S);
            try (RxePeer client = RxePeer.builder().name("rxe-" + tool + "-client").network(network)
                     .command("ibv_" + tool + " -g 1 -n " + ITERS + " " + host).retryWhileRefused().start()) {
                GuestResult c = client.awaitExit(RUN);
                JroceCommand.Result s = server.await(RUN);
                assertEquals(0, c.exitStatus(), c.console() + "\n--- jroce:\n" + s.transcript());
                assertEquals(0, s.status(), s.transcript() + "\n--- rxe:\n" + c.console());
                assertPingpong(c.output(), size, c.console());
                assertPingpong(s.lines(), size, s.transcript());
                assertSameShapes(s.lines(), RefusedTries.removed(c.output(), ITERS_LINE), qps,
                    s.transcript() + "\n--- rxe:\n" + c.console());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** A jroce client, sleeping on CQ events (-e), reaches the rxe tool's server at the guest's IPv4 address. */
    @ParameterizedTest(name = "jroce {0} client, ibv_{0} server")
    @CsvSource({"uc_pingpong, 4096, 1", "ud_pingpong, 1024, 1", "srq_pingpong, 4096, 16"})
    void jroceClientAgainstRxeServerOverIpv4(String tool, int size, int qps) throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (RxeNetwork network = RxeNetwork.builder().create();
             RxePeer server = RxePeer.builder().name("rxe-" + tool + "-server").network(network)
                 .command("ibv_" + tool + " -g 1 -n " + ITERS).start()) {
            server.awaitOutput("local address:", BOOT); // printed just before it listens
            JroceCommand.Result c = JroceCommand.runWhileRefused(pool, RUN, tool, "--bind", network.hostIpv4(),
                "-g", "0", "-e", "-n", Integer.toString(ITERS), "--timeout", PEER_SILENCE_S, server.ipv4());
            GuestResult s = server.awaitExit(RUN);
            assertEquals(0, c.status(), c.transcript() + "\n--- rxe:\n" + s.console());
            assertEquals(0, s.exitStatus(), s.console() + "\n--- jroce:\n" + c.transcript());
            assertPingpong(c.lines(), size, c.transcript());
            assertPingpong(s.output(), size, s.console());
            assertSameShapes(c.lines(), s.output(), qps, c.transcript() + "\n--- rxe:\n" + s.console());
        } finally {
            pool.shutdownNow();
        }
    }

    /** A tool, the size it uses by default and how many QPs it prints an address line for. */
    private record Twin(String tool, int size, int qps) {
    }

    private static final List<Twin> TWINS =
        List.of(new Twin("uc_pingpong", 4096, 1), new Twin("ud_pingpong", 1024, 1), new Twin("srq_pingpong", 4096, 16));

    /**
     * The three twins over the global IPv6 GID (2 in the guest; jroce bound to the host's IPv6
     * address on the bridge, its only GID 0), in both roles, from one guest to keep boots few: the
     * guest first serves each tool in turn (jroce's client, sleeping on CQ events, connects to the
     * guest's IPv4 address for the out-of-band exchange), then runs each tool as the client of a
     * jroce server, chained with {@code &&}. Besides the checks of the IPv4 tests, jroce's GIDs
     * must be the two IPv6 addresses.
     */
    @Test
    void bothRolesOverIpv6() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (RxeNetwork network = RxeNetwork.builder().ipv6().create()) {
            String host4 = network.hostIpv4();
            String host6 = network.hostIpv6().orElseThrow(() -> new AssertionError("no IPv6 on the bridge"));
            String script = TWINS.stream().map(t -> "ibv_" + t.tool() + " -g 2 -n " + ITERS)
                .collect(Collectors.joining("&&")) + "&&"
                + TWINS.stream().map(t -> "retry-refused ibv_" + t.tool() + " -g 2 -n " + ITERS + " " + host4)
                .collect(Collectors.joining("&&"));
            try (RxePeer guest = RxePeer.builder().name("rxe-twins-v6").network(network).command(script)
                     .guestTimeout(Duration.ofMinutes(8)).start()) {
                guest.awaitReady(BOOT);
                String guest6 = guest.ipv6().orElseThrow(() -> new AssertionError("no IPv6 in the guest"));
                List<String> jroceLines = new ArrayList<>();
                List<String> expectedBytes = new ArrayList<>();
                for (Twin t : TWINS) { // jroce as the client of each guest server
                    JroceCommand.Result c = JroceCommand.runWhileRefused(pool, RUN, t.tool(), "--bind", host6,
                        "-g", "0", "-e", "-n", Integer.toString(ITERS), "--timeout", PEER_SILENCE_S, guest.ipv4());
                    assertIpv6Run(c, t, host6, guest6, guest);
                    jroceLines.addAll(c.lines());
                    expectedBytes.add(Long.toString(2L * t.size() * ITERS));
                }
                for (Twin t : TWINS) { // jroce as the server of each guest client
                    JroceCommand.Result s = JroceCommand.start(pool, t.tool(), "--bind", host6, "-g", "0",
                        "-n", Integer.toString(ITERS), "--timeout", PEER_SILENCE_S).await(RUN);
                    assertIpv6Run(s, t, host6, guest6, guest);
                    jroceLines.addAll(s.lines());
                    expectedBytes.add(Long.toString(2L * t.size() * ITERS));
                }
                GuestResult g = guest.awaitExit(RUN);
                String context = String.join("\n", jroceLines) + "\n--- rxe:\n" + g.console();
                assertEquals(0, g.exitStatus(), context);
                assertEquals(expectedBytes, matches(BYTES, g.output()), context);
                assertEquals(Collections.nCopies(2 * TWINS.size(), Integer.toString(ITERS)),
                    matches(ITERS_LINE, g.output()), context);
                // the same order on both sides: servers then clients in the guest, clients then servers here
                List<String> expectedShapes = shapes(RefusedTries.removed(g.output(), ITERS_LINE));
                assertEquals(2 * TWINS.stream().mapToInt(t -> 2 * t.qps() + 2).sum(), expectedShapes.size(), context);
                assertEquals(expectedShapes, shapes(jroceLines), context);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static void assertIpv6Run(JroceCommand.Result r, Twin t, String host6, String guest6, RxePeer guest) {
        String context = t + "\n" + r.transcript() + "\n--- rxe so far:\n" + String.join("\n", guest.consoleLines());
        assertEquals(0, r.status(), context);
        assertPingpong(r.lines(), t.size(), context);
        List<String> local = r.lines().stream().filter(l -> l.contains("local address:")).toList();
        List<String> remote = r.lines().stream().filter(l -> l.contains("remote address:")).toList();
        assertEquals(t.qps(), local.size(), context);
        assertEquals(t.qps(), remote.size(), context);
        assertTrue(local.stream().allMatch(l -> GidLines.endsWithGid(l, host6)), context);
        assertTrue(remote.stream().allMatch(l -> GidLines.endsWithGid(l, guest6)), context);
    }

    /** "N bytes in" with N = 2 x size x iters (each side sends and receives) and "iters in". */
    private static void assertPingpong(List<String> lines, int size, String context) {
        assertEquals(List.of(Long.toString(2L * size * ITERS)), matches(BYTES, lines), context);
        assertEquals(List.of(Integer.toString(ITERS)), matches(ITERS_LINE, lines), context);
    }

    /**
     * jroce printed, line for line, what the real tool printed, once the numbers that differ
     * between the two sides (QPN, PSN, GID, times and rates) are blanked: qps local address lines,
     * qps remote address lines, then the two result lines.
     */
    private static void assertSameShapes(List<String> jroce, List<String> rxe, int qps, String context) {
        List<String> expected = shapes(rxe);
        assertEquals(2 * qps + 2, expected.size(), context);
        assertEquals(expected, shapes(jroce), context);
    }

    private static List<String> shapes(List<String> lines) {
        return lines.stream()
            .filter(l -> l.contains(" address:") || BYTES.matcher(l).find() || ITERS_LINE.matcher(l).find())
            .map(l -> l.replaceAll("0x[0-9a-f]+", "0x?").replaceAll("GID \\S+", "GID ?")
                .replaceAll("\\d+\\.\\d\\d", "?.??"))
            .toList();
    }

    private static List<String> matches(Pattern p, List<String> lines) {
        return lines.stream().map(p::matcher).filter(Matcher::find).map(m -> m.group(1)).toList();
    }
}
