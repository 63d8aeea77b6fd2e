package io.jroce.tests.interop;

import io.jroce.testcontainers.GuestResult;
import io.jroce.testcontainers.RxePeer;
import io.jroce.testcontainers.RxeNetwork;
import io.jroce.testcontainers.RequiresRxePeer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jroce rc_pingpong} on this host against rdma-core's ibv_rc_pingpong on real rxe in a
 * guest, both ways. Each test has a network of its own, so the host's address (where jroce binds
 * UDP port 4791, as rxe requires) is not shared with anything else on the machine.
 */
@RequiresRxePeer
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class RcPingpongRxeTest {
    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Duration RUN = Duration.ofMinutes(4);
    /** jroce's --timeout: a lost peer ends the run instead of hanging it (a guard). */
    private static final String PEER_SILENCE_S = "120";

    private static final Pattern BYTES = Pattern.compile("(\\d+) bytes in \\d+\\.\\d+ seconds = \\d+\\.\\d+ Mbit/sec");
    private static final Pattern ITERS = Pattern.compile("(\\d+) iters in \\d+\\.\\d+ seconds = \\d+\\.\\d+ usec/iter");

    /** rxe connects to a jroce server on the host's IPv4 address on the bridge (GID 1 in the guest). */
    @Test
    void rxeClientAgainstJroceServerOverIpv4() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (RxeNetwork network = RxeNetwork.builder().create()) {
            String host = network.hostIpv4();
            JroceCommand server = JroceCommand.start(pool, "rc_pingpong", "--bind", host, "-g", "0", "-n", "10",
                "--timeout", PEER_SILENCE_S);
            try (RxePeer client = RxePeer.builder().name("rxe-client").network(network)
                     .command("ibv_rc_pingpong -g 1 -n 10 " + host).retryWhileRefused().start()) {
                GuestResult c = client.awaitExit(RUN);
                JroceCommand.Result s = server.await(RUN);
                assertEquals(0, c.exitStatus(), c.console() + "\n--- jroce:\n" + s.transcript());
                assertEquals(0, s.status(), s.transcript() + "\n--- rxe:\n" + c.console());
                assertPingpong(c.output(), 4096, 10, c.console());
                assertPingpong(s.lines(), 4096, 10, s.transcript());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** A jroce client reaches an rxe server over global IPv6 (GID 2) with path MTU 4096 (jumbo network). */
    @Test
    void jroceClientAgainstRxeServerOverIpv6WithPathMtu4096() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (RxeNetwork network = RxeNetwork.builder().ipv6().mtu(9000).create();
             RxePeer server = RxePeer.builder().name("rxe-server").network(network)
                 .command("ibv_rc_pingpong -g 2 -m 4096 -s 8192 -n 10").start()) {
            String host6 = network.hostIpv6().orElseThrow(() -> new AssertionError("no IPv6 on the bridge"));
            server.awaitOutput("local address:", BOOT); // printed just before it listens
            JroceCommand.Result c = JroceCommand.runWhileRefused(pool, RUN, "rc_pingpong", "--bind", host6, "-g", "0",
                "-m", "4096", "-s", "8192", "-n", "10", "--timeout", PEER_SILENCE_S, server.ipv4());
            GuestResult s = server.awaitExit(RUN);
            assertEquals(0, c.status(), c.transcript() + "\n--- rxe:\n" + s.console());
            assertEquals(0, s.exitStatus(), s.console() + "\n--- jroce:\n" + c.transcript());
            assertPingpong(c.lines(), 8192, 10, c.transcript());
            assertPingpong(s.output(), 8192, 10, s.console());
            assertTrue(s.output().stream().anyMatch(l -> l.contains("remote address:") && GidLines.endsWithGid(l, host6)),
                s.console());
        } finally {
            pool.shutdownNow();
        }
    }

    /** "N bytes in" with N = 2 x size x iters (each side sends and receives) and "iters in". */
    private static void assertPingpong(List<String> lines, int size, int iters, String context) {
        assertEquals(List.of(Long.toString(2L * size * iters)), matches(BYTES, lines), context);
        assertEquals(List.of(Integer.toString(iters)), matches(ITERS, lines), context);
    }

    private static List<String> matches(Pattern p, List<String> lines) {
        return lines.stream().map(p::matcher).filter(Matcher::find).map(m -> m.group(1)).toList();
    }
}
