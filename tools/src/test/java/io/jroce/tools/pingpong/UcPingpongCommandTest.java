package io.jroce.tools.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** jroce uc_pingpong against itself: a server and a client in this JVM, over loopback. */
class UcPingpongCommandTest {
    private static final String V4_SERVER = "::ffff:127.0.0.1";
    private static final String V4_CLIENT = "::ffff:127.0.0.2";

    private static PingpongTranscript[] assertExchanged(PingpongPair.Result r, int size, int iters, String serverGid,
                                                        String clientGid) {
        return PingpongTranscript.assertExchanged(r, PingpongTool.UC, 1, size, iters, serverGid, clientGid);
    }

    @ParameterizedTest(name = "IPv4, -s {0} -n {1} -m {2}")
    @CsvSource({"1, 300, 1024", "4096, 300, 1024", "20000, 50, 2048"})
    void serverAndClientPingPongOverIpv4(int size, int iters, int mtu) throws Exception {
        PingpongPair.Result r = PingpongPair.ipv4("uc_pingpong").run("-s", Integer.toString(size),
            "-n", Integer.toString(iters), "-m", Integer.toString(mtu));
        assertExchanged(r, size, iters, V4_SERVER, V4_CLIENT);
    }

    @ParameterizedTest(name = "IPv6, -s {0} -n {1} -m {2}")
    @CsvSource({"1, 300, 1024", "8192, 100, 4096"})
    void serverAndClientPingPongOverIpv6(int size, int iters, int mtu) throws Exception {
        Assumptions.assumeTrue(RcPingpongCommandTest.ipv6Loopback(), "no IPv6 loopback on this machine");
        PingpongPair.Result r = PingpongPair.ipv6("uc_pingpong").run("-s", Integer.toString(size),
            "-n", Integer.toString(iters), "-m", Integer.toString(mtu));
        assertExchanged(r, size, iters, "::1", "::1");
    }

    @Test
    void defaultsAreThoseOfIbvUcPingpong() throws Exception {
        PingpongTranscript[] t = assertExchanged(PingpongPair.ipv4("uc_pingpong").run(), 4096, 1000,
            V4_SERVER, V4_CLIENT);
        assertEquals(List.of(), t[0].invalidPages());
    }

    @Test
    void eventsModeSleepsOnTheCompletionChannel() throws Exception {
        PingpongPair.Result r = PingpongPair.ipv4("uc_pingpong").run(List.of("-e", "-s", "2000", "-n", "200"),
            List.of("--events", "-s", "2000", "-n", "200"));
        assertExchanged(r, 2000, 200, V4_SERVER, V4_CLIENT);
    }

    @Test
    void eventsOverIpv6OnTheServerOnly() throws Exception {
        Assumptions.assumeTrue(RcPingpongCommandTest.ipv6Loopback(), "no IPv6 loopback on this machine");
        PingpongPair.Result r = PingpongPair.ipv6("uc_pingpong").run(List.of("-e", "-n", "100"), List.of("-n", "100"));
        assertExchanged(r, 4096, 100, "::1", "::1");
    }

    @Test
    void chkOnBothSidesFindsEveryPageValidAndTheLongOptionsWork() throws Exception {
        PingpongPair.Result r = PingpongPair.ipv4("uc_pingpong").run("--chk", "--size=9000", "--iters", "30",
            "--mtu=512", "--rx-depth=8", "--sl=1", "--ib-port=1", "--gid-idx=0", "--ib-dev", "rxe0");
        PingpongTranscript[] t = assertExchanged(r, 9000, 30, V4_SERVER, V4_CLIENT);
        assertEquals(List.of(), t[0].invalidPages());
    }

    /** ibv_uc_pingpong has none of ibv_rc_pingpong's -o -O -P -t -j -N: they are unknown options. */
    @ParameterizedTest
    @ValueSource(strings = {"-o", "-O", "-P", "-t", "-j", "-N", "-q", "--odp", "--ts", "--dm", "--new_send",
        "--num-qp"})
    void optionsOfOtherToolsAreUnknown(String option) throws Exception {
        CommandRunner r = CommandRunner.run("uc_pingpong", option, "1");
        assertEquals(ExitStatus.USAGE, r.status(), r.transcript());
        assertTrue(r.err().startsWith("jroce uc_pingpong: unknown option '" + option + "'"), r.transcript());
        assertEquals("", r.out());
    }
}
