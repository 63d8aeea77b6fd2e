package io.jroce.tools.pingpong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;
import io.jroce.verbs.Gid;
import io.jroce.verbs.exchange.PingpongDest;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * uc_pingpong and ud_pingpong when the peer is not what it should be: nothing is acknowledged on
 * UC or UD, so a SEND into the void completes and the side waits for an answer that never comes.
 */
class UnreliablePingpongFailuresTest {
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    /**
     * The client side with a stand-in for the real server, which hands out the address of a QP
     * nobody runs: the client's first SEND completes (no ACK is awaited) and the client then
     * waits for the answer until --timeout.
     */
    @ParameterizedTest
    @ValueSource(strings = {"uc_pingpong", "ud_pingpong"})
    void aSendIntoTheVoidCompletesAndTheClientWaitsForAnAnswer(String command) throws Exception {
        try (ServerSocket listener = new ServerSocket()) {
            listener.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            listener.setSoTimeout((int) TimeUnit.SECONDS.toMillis(PingpongPair.GUARD_S));
            int udp = Ports.freeUdpPort("127.0.0.2");
            Future<CommandRunner> client = pool.submit(() -> CommandRunner.run(command, "-p",
                Integer.toString(listener.getLocalPort()), "--bind", "127.0.0.2", "--udp-port", Integer.toString(udp),
                "--peer-udp-port", Integer.toString(Ports.freeUdpPort("127.0.0.3")), "--timeout", "1", "127.0.0.1"));
            try (Socket s = listener.accept()) {
                s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(PingpongPair.GUARD_S));
                InputStream in = s.getInputStream();
                RcPingpongFailuresTest.checkMessage(in.readNBytes(52));
                s.getOutputStream().write(new PingpongDest(0, 0x44, 0x20, Gid.parse("127.0.0.3")).toMessage());
                assertArrayEquals(new byte[] {'d', 'o', 'n', 'e', 0}, in.readNBytes(5));
                assertEquals(-1, in.read(), "the client closes after done");
            }
            CommandRunner r = client.get(PingpongPair.GUARD_S, TimeUnit.SECONDS);
            assertEquals(ExitStatus.FAILED, r.status(), r.transcript());
            assertTrue(r.out().contains("  remote address: LID 0x0000, QPN 0x000044, PSN 0x000020, GID ::ffff:127.0.0.3"),
                r.transcript());
            assertTrue(r.err().startsWith("jroce " + command + ": error: no completion within 1 s"), r.transcript());
        }
    }

    /** A client that sent a zero GID (the real tool without -g): no address handle on RoCE without a GRH. */
    @Test
    void theUdServerRefusesAPeerWithoutGidAtTheAddressHandle() throws Exception {
        PingpongPair pair = PingpongPair.ipv4("ud_pingpong");
        Future<CommandRunner> server = pool.submit(() -> CommandRunner.run(pair.serverArgs().toArray(String[]::new)));
        pair.awaitListening(server);
        try (Socket s = new Socket(InetAddress.getByName("127.0.0.1"), pair.tcpPort)) {
            s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(PingpongPair.GUARD_S));
            s.getOutputStream().write(Arrays.copyOf("0000:000011:123456:00000000000000000000000000000000"
                .getBytes(StandardCharsets.US_ASCII), 52));
            assertEquals(-1, s.getInputStream().read(), "the server closes without answering");
        }
        CommandRunner r = server.get(PingpongPair.GUARD_S, TimeUnit.SECONDS);
        assertEquals(ExitStatus.FAILED, r.status(), r.transcript());
        assertTrue(r.err().startsWith("jroce ud_pingpong: error: Failed to create AH"), r.transcript());
        assertTrue(r.err().endsWith("error: Couldn't connect to remote QP\n"), r.transcript());
    }

    @ParameterizedTest
    @ValueSource(strings = {"uc_pingpong:Failed to modify QP to RTR", "ud_pingpong:Failed to create AH",
        "srq_pingpong:Failed to modify QP[0] to RTR"})
    void peersOfDifferentIpVersionsAreToldSo(String commandAndStep) throws Exception {
        String[] cs = commandAndStep.split(":", 2);
        PingpongPair.Result r = new PingpongPair(cs[0], "::1", "127.0.0.2", "127.0.0.1").run();
        assertEquals(ExitStatus.FAILED, r.server().status(), r.transcript());
        assertTrue(r.server().err().contains(cs[1] + ": the peer's GID ::ffff:127.0.0.2 and the local GID ::1"
            + " are of different IP versions"), r.transcript());
        assertTrue(r.server().err().endsWith("Couldn't connect to remote QP\n"), r.transcript());
        assertEquals(ExitStatus.FAILED, r.client().status(), r.transcript());
    }
}
