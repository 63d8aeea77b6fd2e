package io.jroce.tests.interop;

import io.jroce.testcontainers.GuestResult;
import io.jroce.testcontainers.RxePeer;
import io.jroce.testcontainers.RxeNetwork;
import io.jroce.testcontainers.RequiresRxePeer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lab end to end, without jroce: two rxe guests run rdma-core's ibv_rc_pingpong against each
 * other (server in one, client in the other), over every address kind a guest has.
 */
@RequiresRxePeer
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class RxeLabSmokeTest {
    /** Guards only: a guest boots in seconds, a 10-iteration pingpong takes about one. */
    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Duration RUN = Duration.ofMinutes(4);

    private static final Pattern BYTES = Pattern.compile("(\\d+) bytes in \\d+\\.\\d+ seconds = \\d+\\.\\d+ Mbit/sec");
    private static final Pattern ITERS = Pattern.compile("(\\d+) iters in \\d+\\.\\d+ seconds = \\d+\\.\\d+ usec/iter");
    private static final Pattern REMOTE_GID = Pattern.compile("remote address: .*GID (\\S+)");

    /** Default bridge: RoCEv2 over IPv4 (GID 1), then over the IPv6 link-local addresses (GID 0). */
    @Test
    void rcPingpongOverIpv4AndIpv6LinkLocal() throws Exception {
        String pingpong = "ibv_rc_pingpong -n 10";
        try (RxePeer server = RxePeer.builder().name("server")
                 .command(pingpong + " -g 1 && " + pingpong + " -g 0").start();
             RxePeer client = RxePeer.builder().name("client")
                 .command("retry-refused " + pingpong + " -g 1 " + server.ipv4()
                     + " && retry-refused " + pingpong + " -g 0 " + server.ipv4()).start()) {
            List<String> gids = server.awaitReady(BOOT);
            assertEquals(address(server.ipv6LinkLocal()), address(gids.get(0)), "GID 0: " + gids);
            assertEquals(address(server.ipv4()), address(gids.get(1)), "GID 1: " + gids);

            GuestResult c = client.awaitExit(RUN);
            GuestResult s = server.awaitExit(RUN);
            assertPingpong(c, 2, 4096, 10);
            assertPingpong(s, 2, 4096, 10);
            List<String> remote = matches(REMOTE_GID, c);
            assertEquals(List.of(address(server.ipv4()), address(server.ipv6LinkLocal())),
                remote.stream().map(RxeLabSmokeTest::address).toList(), c.console());
        }
    }

    /** Own network with IPv6 and a 9000-byte MTU: RoCEv2 over global IPv6 (GID 2) with path MTU 4096. */
    @Test
    void rcPingpongOverGlobalIpv6WithPathMtu4096() throws Exception {
        String pingpong = "ibv_rc_pingpong -g 2 -m 4096 -s 8192 -n 10";
        try (RxeNetwork network = RxeNetwork.builder().ipv6().mtu(9000).create();
             RxePeer server = RxePeer.builder().name("server6").network(network)
                 .command("ibv_devinfo -i 1 | grep active_mtu && " + pingpong).start();
             RxePeer client = RxePeer.builder().name("client6").network(network)
                 .command(pingpong + " " + server.ipv4()).retryWhileRefused().start()) {
            String ipv6 = server.ipv6().orElseThrow(() -> new AssertionError("the network gave no IPv6 address"));
            List<String> gids = server.awaitReady(BOOT);
            assertTrue(gids.size() >= 3, "GIDs: " + gids);
            assertEquals(address(ipv6), address(gids.get(2)), "GID 2: " + gids);

            GuestResult c = client.awaitExit(RUN);
            GuestResult s = server.awaitExit(RUN);
            assertTrue(s.output().stream().anyMatch(l -> l.matches("\\s*active_mtu:\\s+4096 \\(5\\)")), s.console());
            assertPingpong(c, 1, 8192, 10);
            assertPingpong(s, 1, 8192, 10);
            assertEquals(List.of(address(ipv6)), matches(REMOTE_GID, c).stream().map(RxeLabSmokeTest::address).toList(),
                c.console());
        }
    }

    /** Exit status 0 and, per run, "N bytes in" (2 x size x iters: each side sends and receives) and "iters in". */
    private static void assertPingpong(GuestResult r, int runs, int size, int iters) {
        assertEquals(0, r.exitStatus(), r.console());
        assertEquals(java.util.Collections.nCopies(runs, Long.toString(2L * size * iters)), matches(BYTES, r), r.console());
        assertEquals(java.util.Collections.nCopies(runs, Integer.toString(iters)), matches(ITERS, r), r.console());
    }

    private static List<String> matches(Pattern p, GuestResult r) {
        return r.output().stream().map(p::matcher).filter(Matcher::find).map(m -> m.group(1)).toList();
    }

    /** A GID or address in any notation (sysfs' 8 groups, ::ffff:a.b.c.d, a.b.c.d) as one comparable value. */
    private static InetAddress address(String text) {
        try {
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            throw new AssertionError("not an address: " + text, e);
        }
    }
}
