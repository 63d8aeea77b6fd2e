package io.jroce.tools.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.DatagramSocket;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** jroce rc_pingpong against itself: a server and a client in this JVM, over loopback. */
class RcPingpongCommandTest {
    static final Pattern ADDRESS = Pattern.compile(
        "  (local|remote) address: {1,2}LID 0x([0-9a-f]{4}), QPN 0x([0-9a-f]{6}), PSN 0x([0-9a-f]{6}), GID (\\S+)");
    static final Pattern BYTES = Pattern.compile("(\\d+) bytes in (\\d+\\.\\d\\d) seconds = (\\d+\\.\\d\\d) Mbit/sec");
    static final Pattern ITERS = Pattern.compile("(\\d+) iters in (\\d+\\.\\d\\d) seconds = (\\d+\\.\\d\\d) usec/iter");

    /** One side's output, taken apart line by line; every line must be one ibv_rc_pingpong prints. */
    record Output(String localQpn, String localPsn, String localGid, String remoteQpn, String remotePsn,
                  String remoteGid, long bytes, int iters, List<String> invalidPages) {
        static Output parse(CommandRunner r) {
            List<String> lines = r.out().lines().toList();
            assertTrue(lines.size() >= 4, r.transcript());
            Matcher local = match(ADDRESS, lines.get(0), r);
            Matcher remote = match(ADDRESS, lines.get(1), r);
            assertEquals("local", local.group(1), r.transcript());
            assertEquals("remote", remote.group(1), r.transcript());
            assertEquals("0000", local.group(2), "LID 0 on RoCE");
            Matcher bytes = match(BYTES, lines.get(2), r);
            Matcher iters = match(ITERS, lines.get(3), r);
            assertEquals(bytes.group(2), iters.group(2), "one duration in both lines");
            List<String> invalid = lines.subList(4, lines.size());
            for (String line : invalid) {
                assertTrue(line.matches("invalid data in page \\d+"), r.transcript());
            }
            return new Output(local.group(3), local.group(4), local.group(5), remote.group(3), remote.group(4),
                remote.group(5), Long.parseLong(bytes.group(1)), Integer.parseInt(iters.group(1)), invalid);
        }

        private static Matcher match(Pattern p, String line, CommandRunner r) {
            Matcher m = p.matcher(line);
            assertTrue(m.matches(), () -> "'" + line + "' is not " + p + "\n" + r.transcript());
            return m;
        }
    }

    /** Both sides exited 0 with nothing on stderr, and each saw the other's address. */
    static Output[] assertExchanged(PingpongPair.Result r, int size, int iters, String serverGid, String clientGid) {
        assertEquals(ExitStatus.OK, r.server().status(), r.transcript());
        assertEquals(ExitStatus.OK, r.client().status(), r.transcript());
        assertEquals("", r.server().err(), r.transcript());
        assertEquals("", r.client().err(), r.transcript());
        Output s = Output.parse(r.server());
        Output c = Output.parse(r.client());
        assertEquals(serverGid, s.localGid(), r.transcript());
        assertEquals(clientGid, c.localGid(), r.transcript());
        assertEquals(s.localQpn() + s.localPsn() + s.localGid(), c.remoteQpn() + c.remotePsn() + c.remoteGid());
        assertEquals(c.localQpn() + c.localPsn() + c.localGid(), s.remoteQpn() + s.remotePsn() + s.remoteGid());
        for (Output o : new Output[] {s, c}) {
            assertEquals((long) size * iters * 2, o.bytes(), r.transcript());
            assertEquals(iters, o.iters(), r.transcript());
        }
        return new Output[] {s, c};
    }

    @ParameterizedTest(name = "IPv4, -s {0} -n {1} -m {2}")
    @CsvSource({"1, 1000, 1024", "4096, 1000, 1024", "65536, 100, 1024", "4194304, 4, 4096"})
    void serverAndClientPingPongOverIpv4(int size, int iters, int mtu) throws Exception {
        PingpongPair pair = PingpongPair.ipv4();
        PingpongPair.Result r = pair.run("-s", Integer.toString(size), "-n", Integer.toString(iters),
            "-m", Integer.toString(mtu));
        assertExchanged(r, size, iters, "::ffff:127.0.0.1", "::ffff:127.0.0.2");
    }

    @ParameterizedTest(name = "IPv6, -s {0} -n {1} -m {2}")
    @CsvSource({"1, 1000, 1024", "4096, 1000, 1024", "65536, 100, 1024", "4194304, 4, 4096"})
    void serverAndClientPingPongOverIpv6(int size, int iters, int mtu) throws Exception {
        Assumptions.assumeTrue(ipv6Loopback(), "no IPv6 loopback on this machine");
        PingpongPair pair = PingpongPair.ipv6();
        PingpongPair.Result r = pair.run("-s", Integer.toString(size), "-n", Integer.toString(iters),
            "-m", Integer.toString(mtu));
        assertExchanged(r, size, iters, "::1", "::1");
    }

    @Test
    void aSmallReceiveDepthIsRepostedThroughout() throws Exception {
        PingpongPair.Result r = PingpongPair.ipv4().run("-s", "100", "-n", "300", "-r", "2");
        assertExchanged(r, 100, 300, "::ffff:127.0.0.1", "::ffff:127.0.0.2");
    }

    @Test
    void defaultsAreThoseOfIbvRcPingpong() throws Exception {
        PingpongPair.Result r = PingpongPair.ipv4().run();
        assertExchanged(r, 4096, 1000, "::ffff:127.0.0.1", "::ffff:127.0.0.2");
    }

    @Test
    void eventsModeSleepsOnTheCompletionChannel() throws Exception {
        PingpongPair.Result r = PingpongPair.ipv4().run(List.of("-e", "-s", "2000", "-n", "300"),
            List.of("--events", "-s", "2000", "-n", "300"));
        assertExchanged(r, 2000, 300, "::ffff:127.0.0.1", "::ffff:127.0.0.2");
    }

    @Test
    void eventsOnOneSideOnlyStillPingPongs() throws Exception {
        PingpongPair.Result r = PingpongPair.ipv4().run(List.of("-n", "200"), List.of("-e", "-n", "200"));
        assertExchanged(r, 4096, 200, "::ffff:127.0.0.1", "::ffff:127.0.0.2");
    }

    @Test
    void chkOnBothSidesFindsEveryPageValid() throws Exception {
        PingpongPair.Result r = PingpongPair.ipv4().run("-c", "-s", "20000", "-n", "50");
        Output[] o = assertExchanged(r, 20000, 50, "::ffff:127.0.0.1", "::ffff:127.0.0.2");
        assertEquals(List.of(), o[0].invalidPages());
        assertEquals(List.of(), o[1].invalidPages(), "only the server checks");
    }

    @Test
    void chkOnTheServerOnlyReportsEveryPageOfTheClientsPlainBuffer() throws Exception {
        // The client without -c sends its 0x7b fill; the checking server reports each page and exits 0, as the real one.
        PingpongPair.Result r = PingpongPair.ipv4().run(List.of("-c", "-s", "12289", "-n", "10"),
            List.of("-s", "12289", "-n", "10"));
        Output[] o = assertExchanged(r, 12289, 10, "::ffff:127.0.0.1", "::ffff:127.0.0.2");
        assertEquals(List.of("invalid data in page 0", "invalid data in page 1", "invalid data in page 2",
            "invalid data in page 3"), o[0].invalidPages());
    }

    @Test
    void newSendAndServiceLevelAndTheLongOptionsWork() throws Exception {
        PingpongPair.Result r = PingpongPair.ipv4().run("--new_send", "--sl=3", "--size=777", "--iters", "20",
            "--mtu=256", "--rx-depth=16", "--ib-port=1", "--gid-idx=0", "--ib-dev", "mlx5_0");
        assertExchanged(r, 777, 20, "::ffff:127.0.0.1", "::ffff:127.0.0.2");
    }

    static boolean ipv6Loopback() {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("::1"), 0))) {
            return s.getLocalPort() > 0;
        } catch (SocketException | UnknownHostException e) {
            return false;
        }
    }
}
