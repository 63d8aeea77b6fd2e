package io.jroce.tools.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.DatagramSocket;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** jroce rc_pingpong against itself: a server and a client in this JVM, over loopback. */
class RcPingpongCommandTest {
    /** Both sides exited 0 with nothing on stderr, and each saw the other's address. */
    static PingpongTranscript[] assertExchanged(PingpongPair.Result r, int size, int iters, String serverGid,
                                                String clientGid) {
        return PingpongTranscript.assertExchanged(r, PingpongTool.RC, 1, size, iters, serverGid, clientGid);
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
        PingpongTranscript[] o = assertExchanged(r, 20000, 50, "::ffff:127.0.0.1", "::ffff:127.0.0.2");
        assertEquals(List.of(), o[0].invalidPages());
        assertEquals(List.of(), o[1].invalidPages(), "only the server checks");
    }

    @Test
    void chkOnTheServerOnlyReportsEveryPageOfTheClientsPlainBuffer() throws Exception {
        // The client without -c sends its 0x7b fill; the checking server reports each page and exits 0, as the real one.
        PingpongPair.Result r = PingpongPair.ipv4().run(List.of("-c", "-s", "12289", "-n", "10"),
            List.of("-s", "12289", "-n", "10"));
        PingpongTranscript[] o = assertExchanged(r, 12289, 10, "::ffff:127.0.0.1", "::ffff:127.0.0.2");
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
