package io.jroce.tools.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * jroce ud_pingpong against itself: a server and a client in this JVM, over loopback. A jroce
 * port's active MTU is 4096, so messages of up to 4096 bytes go, and larger ones are refused as
 * ibv_ud_pingpong refuses them.
 */
class UdPingpongCommandTest {
    private static final String V4_SERVER = "::ffff:127.0.0.1";
    private static final String V4_CLIENT = "::ffff:127.0.0.2";

    private static PingpongTranscript[] assertExchanged(PingpongPair.Result r, int size, int iters, String serverGid,
                                                        String clientGid) {
        return PingpongTranscript.assertExchanged(r, PingpongTool.UD, 1, size, iters, serverGid, clientGid);
    }

    @ParameterizedTest(name = "IPv4, -s {0} -n {1}")
    @CsvSource({"1, 300", "1024, 300", "4096, 100"})
    void serverAndClientPingPongOverIpv4(int size, int iters) throws Exception {
        PingpongPair.Result r = PingpongPair.ipv4("ud_pingpong").run("-s", Integer.toString(size),
            "-n", Integer.toString(iters));
        assertExchanged(r, size, iters, V4_SERVER, V4_CLIENT);
    }

    @ParameterizedTest(name = "IPv6, -s {0} -n {1}")
    @CsvSource({"1, 300", "4096, 100"})
    void serverAndClientPingPongOverIpv6(int size, int iters) throws Exception {
        Assumptions.assumeTrue(RcPingpongCommandTest.ipv6Loopback(), "no IPv6 loopback on this machine");
        PingpongPair.Result r = PingpongPair.ipv6("ud_pingpong").run("-s", Integer.toString(size),
            "-n", Integer.toString(iters));
        assertExchanged(r, size, iters, "::1", "::1");
    }

    @Test
    void defaultsAreThoseOfIbvUdPingpong() throws Exception {
        assertExchanged(PingpongPair.ipv4("ud_pingpong").run(), 1024, 1000, V4_SERVER, V4_CLIENT);
    }

    @Test
    void eventsModeSleepsOnTheCompletionChannel() throws Exception {
        PingpongPair.Result r = PingpongPair.ipv4("ud_pingpong").run(List.of("-e", "-s", "2000", "-n", "200"),
            List.of("--events", "-s", "2000", "-n", "200"));
        assertExchanged(r, 2000, 200, V4_SERVER, V4_CLIENT);
    }

    @Test
    void eventsOverIpv6OnTheClientOnly() throws Exception {
        Assumptions.assumeTrue(RcPingpongCommandTest.ipv6Loopback(), "no IPv6 loopback on this machine");
        PingpongPair.Result r = PingpongPair.ipv6("ud_pingpong").run(List.of("-n", "100"), List.of("-e", "-n", "100"));
        assertExchanged(r, 1024, 100, "::1", "::1");
    }

    /** The pattern sits after the 40 bytes of GRH room, in the sent and in the received message. */
    @Test
    void chkFindsEveryPageValidBehindTheGrhRoom() throws Exception {
        PingpongPair.Result r = PingpongPair.ipv4("ud_pingpong").run("-c", "-s", "4096", "-n", "20", "-r", "4");
        PingpongTranscript[] t = assertExchanged(r, 4096, 20, V4_SERVER, V4_CLIENT);
        assertEquals(List.of(), t[0].invalidPages());
    }

    @Test
    void chkOnTheServerOnlyReportsThePageOfTheClientsPlainBuffer() throws Exception {
        PingpongPair.Result r = PingpongPair.ipv4("ud_pingpong").run(List.of("-c", "-n", "10"), List.of("-n", "10"));
        PingpongTranscript[] t = assertExchanged(r, 1024, 10, V4_SERVER, V4_CLIENT);
        assertEquals(List.of("invalid data in page 0"), t[0].invalidPages());
    }

    /**
     * ibv_ud_pingpong checks the size against the port's active MTU right after opening the
     * device and stops with this line and status 1, before printing anything.
     */
    @ParameterizedTest
    @ValueSource(strings = {"4097", "8192", "65536"})
    void aSizeAboveThePortMtuIsRefusedAsTheRealOneRefusesIt(String size) throws Exception {
        for (boolean client : new boolean[] {false, true}) {
            List<String> args = new ArrayList<>(List.of("ud_pingpong", "-s", size, "-p",
                Integer.toString(Ports.freeTcpPort()), "--udp-port", Integer.toString(Ports.freeUdpPort("127.0.0.1"))));
            if (client) {
                args.add("127.0.0.1");
            }
            CommandRunner r = CommandRunner.run(args.toArray(String[]::new));
            assertEquals(ExitStatus.FAILED, r.status(), r.transcript());
            assertEquals("", r.out(), r.transcript());
            assertEquals("jroce ud_pingpong: error: Requested size larger than port MTU (4096)\n", r.err());
        }
    }

    /** UD has no path MTU to set: ibv_ud_pingpong has no -m. */
    @ParameterizedTest
    @ValueSource(strings = {"-m", "--mtu", "-o", "-t", "-N", "-q"})
    void optionsOfOtherToolsAreUnknown(String option) throws Exception {
        CommandRunner r = CommandRunner.run("ud_pingpong", option, "1024");
        assertEquals(ExitStatus.USAGE, r.status(), r.transcript());
        assertTrue(r.err().startsWith("jroce ud_pingpong: unknown option '" + option + "'"), r.transcript());
    }
}
