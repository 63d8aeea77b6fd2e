package io.jroce.tools.pingpong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;
import io.jroce.verbs.Gid;
import io.jroce.verbs.exchange.PingpongDest;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What goes wrong, and how it is said: refused options, the TCP exchange byte by byte against a
 * stand-in for the real tool, and peers that cannot be reached.
 */
class RcPingpongFailuresTest {
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    /** Checks the form of an address message (the text, its NUL, nothing else) and returns the text. */
    static String checkMessage(byte[] m) {
        assertEquals(52, m.length);
        assertEquals(0, m[51], "NUL-terminated");
        String text = new String(m, 0, 51, StandardCharsets.US_ASCII);
        assertTrue(text.matches("0000:[0-9a-f]{6}:[0-9a-f]{6}:[0-9a-f]{32}"), text);
        return text;
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "-o|The device isn't ODP capable or does not support RC send and receive with ODP",
        "--iodp|The device isn't ODP capable",
        "-P|prefetch is valid only with on-demand memory region",
        "-o -j|DM memory region can't be on demand",
        "-t|The device isn't completion timestamp capable",
        "--dm|Device doesn't support dm allocation"})
    void optionsJroceCannotHonourAreRefusedBeforeAnythingRuns(String args, String message) throws Exception {
        String[] argv = ("rc_pingpong " + args).split(" ");
        CommandRunner r = CommandRunner.run(argv);
        assertEquals(ExitStatus.FAILED, r.status(), r.transcript());
        assertEquals("", r.out(), "nothing opened, nothing printed");
        assertTrue(r.err().startsWith("jroce rc_pingpong: error: " + message), r.transcript());
    }

    @Test
    void aClientWithoutServerCannotConnect() throws Exception {
        int port = Ports.freeTcpPort();
        CommandRunner r = CommandRunner.run("rc_pingpong", "-p", Integer.toString(port), "--bind", "127.0.0.2",
            "--udp-port", Integer.toString(Ports.freeUdpPort("127.0.0.2")), "127.0.0.1");
        assertEquals(ExitStatus.FAILED, r.status(), r.transcript());
        assertTrue(r.out().startsWith("  local address:  LID 0x0000, QPN 0x"), r.transcript());
        assertEquals("jroce rc_pingpong: error: Couldn't connect to 127.0.0.1:" + port + "\n", r.err());
    }

    @Test
    void aServerGivesUpWaitingForAClientAfterItsTimeout() throws Exception {
        CommandRunner r = CommandRunner.run("rc_pingpong", "-p", Integer.toString(Ports.freeTcpPort()),
            "--udp-port", Integer.toString(Ports.freeUdpPort("127.0.0.1")), "--timeout", "1");
        assertEquals(ExitStatus.FAILED, r.status(), r.transcript());
        assertTrue(r.err().startsWith("jroce rc_pingpong: error: accept() failed"), r.transcript());
    }

    @Test
    void aGidIndexBeyondTheBindAddressesCannotBeRead() throws Exception {
        CommandRunner r = CommandRunner.run("rc_pingpong", "-g", "1", "-p", Integer.toString(Ports.freeTcpPort()),
            "--udp-port", Integer.toString(Ports.freeUdpPort("127.0.0.1")));
        assertEquals(ExitStatus.FAILED, r.status(), r.transcript());
        assertTrue(r.err().startsWith("jroce rc_pingpong: error: can't read sgid of index 1"), r.transcript());
    }

    @Test
    void aUdpPortInUseMeansNoDevice() throws Exception {
        try (DatagramSocket holder = new DatagramSocket(
                new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0))) {
            CommandRunner r = CommandRunner.run("rc_pingpong", "--udp-port", Integer.toString(holder.getLocalPort()),
                "-p", Integer.toString(Ports.freeTcpPort()));
            assertEquals(ExitStatus.FAILED, r.status(), r.transcript());
            assertTrue(r.err().startsWith("jroce rc_pingpong: error: Couldn't get context for jroce0"), r.transcript());
        }
    }

    /**
     * The server side of the exchange, with a stand-in for the real client: it reads exactly one
     * 52-byte message, answers with its own, then reads "done\0". A zero GID (what
     * ibv_rc_pingpong sends without -g) gives no route on RoCE: the server says so and stops.
     */
    @Test
    void theServerReadsConnectsAndAnswersAsTheRealOneAndRefusesAPeerWithoutGid() throws Exception {
        PingpongPair pair = PingpongPair.ipv4();
        Future<CommandRunner> server = pool.submit(() -> CommandRunner.run(pair.serverArgs().toArray(String[]::new)));
        pair.awaitListening(server);
        try (Socket s = new Socket(InetAddress.getByName("127.0.0.1"), pair.tcpPort)) {
            s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(PingpongPair.GUARD_S));
            byte[] zeroGid = Arrays.copyOf("0000:000011:123456:00000000000000000000000000000000"
                .getBytes(StandardCharsets.US_ASCII), 52);
            s.getOutputStream().write(zeroGid);
            assertEquals(-1, s.getInputStream().read(), "the server closes without answering");
        }
        CommandRunner r = server.get(PingpongPair.GUARD_S, TimeUnit.SECONDS);
        assertEquals(ExitStatus.FAILED, r.status(), r.transcript());
        assertTrue(r.err().contains("error: Failed to modify QP to RTR"), r.transcript());
        assertTrue(r.err().endsWith("error: Couldn't connect to remote QP\n"), r.transcript());
        assertFalse(r.out().contains("remote address"), "printed only once the exchange is done: " + r.transcript());
    }

    @Test
    void theServersAnswerIsOne52ByteMessageAndItWaitsForDone() throws Exception {
        PingpongPair pair = PingpongPair.ipv4();
        List<String> args = pair.serverArgs("--timeout", "1");
        Future<CommandRunner> server = pool.submit(() -> CommandRunner.run(args.toArray(String[]::new)));
        pair.awaitListening(server);
        String answer;
        try (Socket s = new Socket(InetAddress.getByName("127.0.0.1"), pair.tcpPort)) {
            s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(PingpongPair.GUARD_S));
            s.getOutputStream().write(new PingpongDest(0, 0x33, 0x10, Gid.parse("127.0.0.2")).toMessage());
            answer = checkMessage(s.getInputStream().readNBytes(52));
            s.getOutputStream().write(new byte[] {'d', 'o', 'n', 'e', 0});
            assertEquals(-1, s.getInputStream().read(), "nothing after the message");
        }
        assertTrue(answer.endsWith(":00000000000000000000ffff7f000001"), answer);
        CommandRunner r = server.get(PingpongPair.GUARD_S, TimeUnit.SECONDS);
        // Nobody sends: the server, having connected its QP, waits for the first message until --timeout.
        assertEquals(ExitStatus.FAILED, r.status(), r.transcript());
        assertTrue(r.out().contains("  remote address: LID 0x0000, QPN 0x000033, PSN 0x000010, GID ::ffff:127.0.0.2"),
            r.transcript());
        assertTrue(r.err().contains("no completion within 1 s"), r.transcript());
        // jroce's side of the silence: nothing received, the QP ready and expecting the peer's first PSN
        assertTrue(r.err().contains("jroce rc_pingpong: jroce's side: 0 of 1000 sends and 0 of 1000 receives"
            + " completed\n"), r.transcript());
        assertTrue(r.err().contains(", rq-psn 0x000010 (the next it expects)\n"), r.transcript());
        assertTrue(r.err().contains("jroce rc_pingpong: QP 0x"), r.transcript());
        assertTrue(r.err().contains(": RTS, sq-psn "), r.transcript());
    }

    /**
     * The client side, with a stand-in for the real server: the client writes its message first,
     * reads the server's, writes "done\0" (5 bytes) and closes. Its first SEND then goes to a GID
     * nobody answers for, and RC gives up after retry_cnt 7 retransmissions.
     */
    @Test
    void theClientExchangesAsTheRealOneAndReportsAFailedSendAsTheRealOne() throws Exception {
        try (ServerSocket listener = new ServerSocket()) {
            listener.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            listener.setSoTimeout((int) TimeUnit.SECONDS.toMillis(PingpongPair.GUARD_S));
            int udp = Ports.freeUdpPort("127.0.0.2");
            Future<CommandRunner> client = pool.submit(() -> CommandRunner.run("rc_pingpong", "-p",
                Integer.toString(listener.getLocalPort()), "--bind", "127.0.0.2", "--udp-port", Integer.toString(udp),
                "--peer-udp-port", Integer.toString(Ports.freeUdpPort("127.0.0.3")), "127.0.0.1"));
            try (Socket s = listener.accept()) {
                s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(PingpongPair.GUARD_S));
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                String hello = checkMessage(in.readNBytes(52));
                assertTrue(hello.endsWith(":00000000000000000000ffff7f000002"), hello);
                out.write(new PingpongDest(0, 0x44, 0x20, Gid.parse("127.0.0.3")).toMessage());
                assertArrayEquals(new byte[] {'d', 'o', 'n', 'e', 0}, in.readNBytes(5));
                assertEquals(-1, in.read(), "the client closes after done");
            }
            CommandRunner r = client.get(PingpongPair.GUARD_S, TimeUnit.SECONDS);
            assertEquals(ExitStatus.FAILED, r.status(), r.transcript());
            assertTrue(r.out().contains("  remote address: LID 0x0000, QPN 0x000044, PSN 0x000020, GID ::ffff:127.0.0.3"),
                r.transcript());
            List<String> err = r.err().lines().toList();
            assertEquals("jroce rc_pingpong: error: Failed status transport retry counter exceeded (12) for wr_id 2",
                err.get(0), r.transcript());
            // then jroce's own side: nothing completed, the QP in ERR, its one SEND sent and retried
            // seven times (rc_pingpong's retry_cnt) before the error
            assertEquals("jroce rc_pingpong: jroce's side: 0 of 1000 sends and 0 of 1000 receives completed",
                err.get(1), r.transcript());
            assertTrue(err.get(2).matches("jroce rc_pingpong: QP 0x[0-9a-f]{6}: ERR, sq-psn 0x[0-9a-f]{6} \\(the next it"
                + " sends\\), rq-psn 0x000020 \\(the next it expects\\)"), r.transcript());
            assertTrue(err.get(3).startsWith("jroce rc_pingpong: device counters:"), r.transcript());
            assertTrue(err.get(3).contains(" completer_retry_err=7 ") && err.get(3).contains(" rdma_sends=1 ")
                && err.get(3).contains(" retry_exceeded_err=1"), r.transcript());
            assertEquals(4, err.size(), r.transcript());
        }
    }

    @Test
    void peersOfDifferentIpVersionsAreToldSo() throws Exception {
        PingpongPair pair = new PingpongPair("::1", "127.0.0.2", "127.0.0.1");
        PingpongPair.Result r = pair.run();
        assertEquals(ExitStatus.FAILED, r.server().status(), r.transcript());
        assertTrue(r.server().err().contains("are of different IP versions"), r.transcript());
        assertTrue(r.server().err().endsWith("Couldn't connect to remote QP\n"), r.transcript());
        assertEquals(ExitStatus.FAILED, r.client().status(), r.transcript());
        assertTrue(r.client().err().contains("Couldn't read/write remote address"), r.transcript());
    }
}
