package io.jroce.tools.pingpong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;
import io.jroce.verbs.Gid;
import io.jroce.verbs.exchange.PingpongDest;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * jroce srq_pingpong against itself (a server and a client in this JVM, over loopback), and its
 * TCP exchange of 256 address messages each way against stand-ins for the real tool.
 */
class SrqPingpongCommandTest {
    private static final String V4_SERVER = "::ffff:127.0.0.1";
    private static final String V4_CLIENT = "::ffff:127.0.0.2";
    private static final String UNUSED = "0000:000000:000000:" + "0".repeat(32);

    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    private static PingpongTranscript[] assertExchanged(PingpongPair.Result r, int qps, int size, int iters,
                                                        String serverGid, String clientGid) {
        return PingpongTranscript.assertExchanged(r, PingpongTool.SRQ, qps, size, iters, serverGid, clientGid);
    }

    @Test
    void defaultsAreThoseOfIbvSrqPingpong() throws Exception {
        assertExchanged(PingpongPair.ipv4("srq_pingpong").run(), 16, 4096, 1000, V4_SERVER, V4_CLIENT);
    }

    @ParameterizedTest(name = "IPv4, -q {0} -r {1} -s {2} -n {3} -m {4}")
    @CsvSource({"1, 500, 1, 300, 1024", "4, 4, 100, 200, 1024", "255, 300, 64, 1000, 256", "8, 100, 20000, 80, 4096"})
    void serverAndClientPingPongOverIpv4(int qps, int rxDepth, int size, int iters, int mtu) throws Exception {
        PingpongPair.Result r = PingpongPair.ipv4("srq_pingpong").run("-q", Integer.toString(qps),
            "-r", Integer.toString(rxDepth), "-s", Integer.toString(size), "-n", Integer.toString(iters),
            "-m", Integer.toString(mtu));
        assertExchanged(r, qps, size, iters, V4_SERVER, V4_CLIENT);
    }

    @Test
    void serverAndClientPingPongOverIpv6() throws Exception {
        Assumptions.assumeTrue(RcPingpongCommandTest.ipv6Loopback(), "no IPv6 loopback on this machine");
        PingpongPair.Result r = PingpongPair.ipv6("srq_pingpong").run("-n", "300", "-s", "3000");
        assertExchanged(r, 16, 3000, 300, "::1", "::1");
    }

    @Test
    void eventsModeSleepsOnTheCompletionChannel() throws Exception {
        PingpongPair.Result r = PingpongPair.ipv4("srq_pingpong").run(List.of("-e", "-s", "2000", "-n", "300"),
            List.of("--events", "--num-qp=16", "-s", "2000", "-n", "300"));
        assertExchanged(r, 16, 2000, 300, V4_SERVER, V4_CLIENT);
    }

    @Test
    void eventsOverIpv6WithFewQps() throws Exception {
        Assumptions.assumeTrue(RcPingpongCommandTest.ipv6Loopback(), "no IPv6 loopback on this machine");
        PingpongPair.Result r = PingpongPair.ipv6("srq_pingpong").run(List.of("-e", "-q", "3", "-n", "100"),
            List.of("-q", "3", "-n", "100"));
        assertExchanged(r, 3, 4096, 100, "::1", "::1");
    }

    /** srq_pingpong zeroes its buffer, and the -c pattern is zeros: every page checks out. */
    @Test
    void chkFindsEveryPageValid() throws Exception {
        PingpongPair.Result r = PingpongPair.ipv4("srq_pingpong").run(List.of("-c", "-s", "10000", "-n", "50"),
            List.of("-s", "10000", "-n", "50"));
        PingpongTranscript[] t = assertExchanged(r, 16, 10000, 50, V4_SERVER, V4_CLIENT);
        assertEquals(List.of(), t[0].invalidPages());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "-q 20 -r 10|rx_depth 10 is too small for 20 QPs -- must have at least one receive per QP.",
        "-q 256|num_qp 256 must be less than 255",
        "-q 1000 -r 1000|num_qp 1000 must be less than 255",
        "-o|The device isn't ODP capable or does not support RC send, receive and srq with ODP",
        "--odp|The device isn't ODP capable or does not support RC send, receive and srq with ODP"})
    void whatTheRealOneRefusesOrJroceCannotDoIsRefusedBeforeAnythingRuns(String args, String message)
        throws Exception {
        String[] argv = ("srq_pingpong " + args).split(" ");
        CommandRunner r = CommandRunner.run(argv);
        assertEquals(ExitStatus.FAILED, r.status(), r.transcript());
        assertEquals("", r.out(), "nothing opened, nothing printed");
        assertTrue(r.err().startsWith("jroce srq_pingpong: error: " + message), r.transcript());
    }

    @Test
    void optionsOfOtherToolsAreUnknownAndTheQpCountIsANumber() throws Exception {
        for (String option : List.of("-t", "-N", "-j", "-O", "-P", "--ts")) {
            CommandRunner r = CommandRunner.run("srq_pingpong", option);
            assertEquals(ExitStatus.USAGE, r.status(), r.transcript());
            assertTrue(r.err().startsWith("jroce srq_pingpong: unknown option '" + option + "'"), r.transcript());
        }
        CommandRunner r = CommandRunner.run("srq_pingpong", "-q", "0");
        assertEquals(ExitStatus.USAGE, r.status(), r.transcript());
        assertTrue(r.err().startsWith("jroce srq_pingpong: -q needs a number from 1 to"), r.transcript());
    }

    /**
     * The server side with a stand-in for the real client: 256 messages come in, 256 go out, the
     * first num_qp with the server's QPs and the rest all zeros, then "done\0" is read. Nobody
     * sends after that: the server waits for its first message until --timeout.
     */
    @Test
    void theServerReadsAndAnswers256MessagesWithZerosPastItsQps() throws Exception {
        PingpongPair pair = PingpongPair.ipv4("srq_pingpong");
        List<String> args = pair.serverArgs("-q", "5", "--timeout", "1");
        Future<CommandRunner> server = pool.submit(() -> CommandRunner.run(args.toArray(String[]::new)));
        pair.awaitListening(server);
        List<String> answers = new ArrayList<>();
        try (Socket s = new Socket(InetAddress.getByName("127.0.0.1"), pair.tcpPort)) {
            s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(PingpongPair.GUARD_S));
            OutputStream out = s.getOutputStream();
            for (int i = 0; i < 256; i++) {
                out.write((i < 5 ? new PingpongDest(0, 0x40 + i, 0x100 + i, Gid.parse("127.0.0.2"))
                    : PingpongTool.unusedDest()).toMessage());
            }
            for (int i = 0; i < 256; i++) {
                answers.add(RcPingpongFailuresTest.checkMessage(s.getInputStream().readNBytes(52)));
            }
            out.write(new byte[] {'d', 'o', 'n', 'e', 0});
            assertEquals(-1, s.getInputStream().read(), "nothing after the messages");
        }
        for (int i = 0; i < 5; i++) {
            assertTrue(answers.get(i).endsWith(":00000000000000000000ffff7f000001"), answers.get(i));
        }
        assertEquals(5, answers.subList(0, 5).stream().map(a -> a.substring(5, 11)).distinct().count(), "QPNs");
        assertEquals(List.of(UNUSED), answers.subList(5, 256).stream().distinct().toList());
        CommandRunner r = server.get(PingpongPair.GUARD_S, TimeUnit.SECONDS);
        assertEquals(ExitStatus.FAILED, r.status(), r.transcript());
        List<String> lines = r.out().lines().toList();
        assertEquals(10, lines.size(), r.transcript());
        for (int i = 0; i < 5; i++) {
            assertEquals(String.format("  remote address: LID 0x0000, QPN 0x%06x, PSN 0x%06x, GID ::ffff:127.0.0.2",
                0x40 + i, 0x100 + i), lines.get(5 + i), r.transcript());
        }
        assertTrue(r.err().contains("no completion within 1 s"), r.transcript());
    }

    /** The client side with a stand-in for the real server: 256 messages come in before any answer. */
    @Test
    void theClientWrites256MessagesWithZerosPastItsQps() throws Exception {
        try (ServerSocket listener = new ServerSocket()) {
            listener.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            listener.setSoTimeout((int) TimeUnit.SECONDS.toMillis(PingpongPair.GUARD_S));
            Future<CommandRunner> client = pool.submit(() -> CommandRunner.run("srq_pingpong", "-q", "2",
                "-p", Integer.toString(listener.getLocalPort()), "--bind", "127.0.0.2",
                "--udp-port", Integer.toString(Ports.freeUdpPort("127.0.0.2")), "127.0.0.1"));
            try (Socket s = listener.accept()) {
                s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(PingpongPair.GUARD_S));
                InputStream in = s.getInputStream();
                List<String> hello = new ArrayList<>();
                for (int i = 0; i < 256; i++) {
                    hello.add(RcPingpongFailuresTest.checkMessage(in.readNBytes(52)));
                }
                assertTrue(hello.get(0).endsWith(":00000000000000000000ffff7f000002"), hello.get(0));
                assertTrue(hello.get(1).endsWith(":00000000000000000000ffff7f000002"), hello.get(1));
                assertEquals(List.of(UNUSED), hello.subList(2, 256).stream().distinct().toList());
                // Half an answer, then the connection closes.
                s.getOutputStream().write(new byte[30]);
            }
            CommandRunner r = client.get(PingpongPair.GUARD_S, TimeUnit.SECONDS);
            assertEquals(ExitStatus.FAILED, r.status(), r.transcript());
            assertEquals(2, r.out().lines().count(), r.transcript());
            assertTrue(r.err().startsWith("jroce srq_pingpong: error: 30/52: Couldn't read remote address [0]"),
                r.transcript());
        }
    }

    @Test
    void theUnusedEntryIsAllZeros() {
        byte[] m = PingpongTool.unusedDest().toMessage();
        assertArrayEquals(java.util.Arrays.copyOf(UNUSED.getBytes(java.nio.charset.StandardCharsets.US_ASCII), 52), m);
    }
}
