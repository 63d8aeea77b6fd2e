package io.jroce.tests.interop;

import io.jroce.testcontainers.GuestResult;
import io.jroce.testcontainers.RxePeer;
import io.jroce.testcontainers.RxeNetwork;
import io.jroce.testcontainers.RequiresRxePeer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
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
 * The rc_pingpong interop matrix: {@code jroce rc_pingpong} against rdma-core's ibv_rc_pingpong
 * on real rxe, in both roles, over the IPv4 and the global IPv6 GID, with path MTU 1024 and 4096,
 * at message sizes from 1 byte to 1 MiB. To keep guest boots few, one guest per network runs the
 * whole list: first every step as the server, then every step as the client (each client retrying
 * while jroce's server is not listening yet), chained with {@code &&}; the test runs the matching
 * jroce side step by step. Both sides must exit 0 and print the same "bytes in" and "iters in"
 * counts (2 x size x iters, iters); jroce's local and remote GIDs must be of the family asked for.
 */
@RequiresRxePeer
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class RcPingpongMatrixRxeTest {
    private static final Duration BOOT = Duration.ofMinutes(3);
    /** A guard per step, not a pace: each step takes seconds. */
    private static final Duration STEP = Duration.ofMinutes(3);
    private static final String PEER_SILENCE_S = "120";

    private static final Pattern BYTES = Pattern.compile("(\\d+) bytes in \\d+\\.\\d+ seconds = \\d+\\.\\d+ Mbit/sec");
    private static final Pattern ITERS = Pattern.compile("(\\d+) iters in \\d+\\.\\d+ seconds = \\d+\\.\\d+ usec/iter");

    private static final int MIB = 1 << 20;

    /** One ibv_rc_pingpong run: the guest's GID index, path MTU, message size and iterations. */
    private record Step(int guestGid, int mtu, int size, int iters) {
        String args() {
            return guestGid + " " + mtu + " " + size + " " + iters;
        }
    }

    /** 1 byte (many round trips), path MTU + 1 (one full packet and one byte), 64 KiB, 1 MiB. */
    private static List<Step> sizes(int gid, int mtu) {
        return List.of(new Step(gid, mtu, 1, 1000), new Step(gid, mtu, mtu + 1, 200),
            new Step(gid, mtu, 64 * 1024, 20), new Step(gid, mtu, MIB, 4));
    }

    /** Docker's usual 1500-byte MTU: rxe's active MTU is 1024; the IPv4 GID (1 in the guest). */
    @Test
    void ipv4WithPathMtu1024BothRoles() throws Exception {
        try (RxeNetwork network = RxeNetwork.builder().create()) {
            runMatrix(network, sizes(1, 1024));
        }
    }

    /**
     * A jumbo IPv6 network: the global IPv6 GID (2 in the guest) at path MTU 4096 and 1024, and
     * the IPv4 GID at path MTU 4096.
     */
    @Test
    void ipv6AndIpv4WithPathMtu4096And1024BothRoles() throws Exception {
        try (RxeNetwork network = RxeNetwork.builder().ipv6().mtu(9000).create()) {
            List<Step> steps = new ArrayList<>(sizes(2, 4096));
            steps.add(new Step(2, 1024, 1, 1000));
            steps.add(new Step(2, 1024, MIB, 3));
            steps.add(new Step(1, 4096, 1, 1000));
            steps.add(new Step(1, 4096, MIB, 3));
            runMatrix(network, steps);
        }
    }

    private void runMatrix(RxeNetwork network, List<Step> steps) throws Exception {
        String host4 = network.hostIpv4();
        // s: a server step, c: a client step (connecting to jroce's server on the host).
        String script = "s(){ ibv_rc_pingpong -g $1 -m $2 -s $3 -n $4;};"
            + "c(){ retry-refused ibv_rc_pingpong -g $1 -m $2 -s $3 -n $4 " + host4 + ";};"
            + steps.stream().map(s -> "s " + s.args()).collect(Collectors.joining("&&")) + "&&"
            + steps.stream().map(s -> "c " + s.args()).collect(Collectors.joining("&&"));
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (RxePeer guest = RxePeer.builder().name("rxe-matrix").network(network).command(script)
                 .guestTimeout(Duration.ofMinutes(12)).start()) {
            guest.awaitReady(BOOT);
            List<String> expectedBytes = new ArrayList<>();
            List<String> expectedIters = new ArrayList<>();
            // jroce as the client of each guest server.
            for (Step s : steps) {
                JroceCommand.Result c = JroceCommand.runWhileRefused(pool, STEP,
                    jroceArgs(network, s, guest.ipv4()));
                assertStep(c, s, network, guest);
                expectedBytes.add(Long.toString(2L * s.size() * s.iters()));
                expectedIters.add(Integer.toString(s.iters()));
            }
            // jroce as the server of each guest client.
            for (Step s : steps) {
                JroceCommand.Result srv = JroceCommand.start(pool, jroceArgs(network, s, null)).await(STEP);
                assertStep(srv, s, network, guest);
                expectedBytes.add(Long.toString(2L * s.size() * s.iters()));
                expectedIters.add(Integer.toString(s.iters()));
            }
            GuestResult g = guest.awaitExit(STEP);
            assertEquals(0, g.exitStatus(), g.console());
            assertEquals(expectedBytes, matches(BYTES, g.output()), g.console());
            assertEquals(expectedIters, matches(ITERS, g.output()), g.console());
        } finally {
            pool.shutdownNow();
        }
    }

    /** jroce bound to the host's address of the GID's family, its only GID (0). */
    private static String[] jroceArgs(RxeNetwork network, Step s, String serverHost) {
        String bind = s.guestGid() == 1 ? network.hostIpv4()
            : network.hostIpv6().orElseThrow(() -> new AssertionError("no IPv6 on the bridge"));
        List<String> args = new ArrayList<>(List.of("rc_pingpong", "--bind", bind, "-g", "0",
            "-m", Integer.toString(s.mtu()), "-s", Integer.toString(s.size()), "-n", Integer.toString(s.iters()),
            "--timeout", PEER_SILENCE_S));
        if (serverHost != null) {
            args.add(serverHost);
        }
        return args.toArray(String[]::new);
    }

    private static void assertStep(JroceCommand.Result r, Step s, RxeNetwork network, RxePeer guest) {
        String context = s + "\n" + r.transcript() + "\n--- rxe so far:\n" + String.join("\n", guest.consoleLines());
        assertEquals(0, r.status(), context);
        // the GID of the family asked for, on both ends
        String local = s.guestGid() == 1 ? "::ffff:" + network.hostIpv4() : network.hostIpv6().orElseThrow();
        String remote = s.guestGid() == 1 ? "::ffff:" + guest.ipv4() : guest.ipv6().orElseThrow();
        assertTrue(r.lines().stream().anyMatch(l -> l.contains("local address:") && GidLines.endsWithGid(l, local)), context);
        assertTrue(r.lines().stream().anyMatch(l -> l.contains("remote address:") && GidLines.endsWithGid(l, remote)), context);
        assertEquals(List.of(Long.toString(2L * s.size() * s.iters())), matches(BYTES, r.lines()), context);
        assertEquals(List.of(Integer.toString(s.iters())), matches(ITERS, r.lines()), context);
    }

    private static List<String> matches(Pattern p, List<String> lines) {
        return lines.stream().map(p::matcher).filter(Matcher::find).map(m -> m.group(1)).toList();
    }
}
