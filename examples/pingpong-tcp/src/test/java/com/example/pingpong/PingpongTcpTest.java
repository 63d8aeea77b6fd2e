package com.example.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The ping-pong over QPs connected through the TCP exchange: both programs in this JVM, then the server as a process of its own. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class PingpongTcpTest {
    private static final int ITERATIONS = 5;

    private static List<String> expected(String word) {
        return IntStream.range(0, ITERATIONS).mapToObj(i -> word + " " + i).toList();
    }

    private static List<String> text(List<byte[]> messages) {
        return messages.stream().map(m -> new String(m, StandardCharsets.UTF_8)).toList();
    }

    @Test
    void bothProgramsInOneJvm() throws Exception {
        int udpPort = freeUdpPort();
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<List<byte[]>> server = CompletableFuture.supplyAsync(() -> {
                try {
                    return PingServer.serve("127.0.0.1", udpPort, listener, ITERATIONS, Duration.ofMinutes(1));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertEquals(expected("ping"), text(PingClient.ping("127.0.0.2", udpPort, "127.0.0.1",
                listener.getLocalPort(), ITERATIONS)), "each pong is its ping sent back");
            assertEquals(expected("ping"), text(server.get(1, TimeUnit.MINUTES)));
        }
    }

    @Test
    void theServerInAProcessOfItsOwn() throws Exception {
        int udpPort = freeUdpPort();
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process server = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
            PingServer.class.getName(), "127.0.0.1", "0", Integer.toString(ITERATIONS), Integer.toString(udpPort))
            .redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))) {
            List<String> lines = new ArrayList<>();
            String line;
            while ((line = out.readLine()) != null && !line.startsWith("listening on ")) {
                lines.add(line);
            }
            assertTrue(line != null, "the server ended before it listened: " + lines);
            int tcpPort = Integer.parseInt(line.substring("listening on ".length()));
            assertEquals(expected("ping"), text(PingClient.ping("127.0.0.2", udpPort, "127.0.0.1", tcpPort, ITERATIONS)));
            assertTrue(server.waitFor(1, TimeUnit.MINUTES), "the server did not end after its client");
            assertEquals(0, server.exitValue());
            // (what a logging library says on stderr, without a provider, may come first)
            List<String> rest = out.lines().dropWhile(l -> !l.startsWith("client QP 0x")).toList();
            assertTrue(!rest.isEmpty() && rest.get(0).endsWith(" at 127.0.0.2"), rest.toString());
            assertEquals(expected("got ping"), rest.subList(1, rest.size()));
        } finally {
            server.destroyForcibly();
        }
    }

    private static int freeUdpPort() throws Exception {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            return s.getLocalPort();
        }
    }
}
