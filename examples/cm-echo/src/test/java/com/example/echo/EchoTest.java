package com.example.echo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.rnic.SoftRnic;
import io.jroce.verbs.RdmaDevice;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The echo over RDMA CM: both ends in this JVM, then the server as a process of its own. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class EchoTest {
    @Test
    void bothEndsInOneJvm() throws Exception {
        int udpPort = freeUdpPort();
        try (RdmaDevice server = SoftRnic.builder().address("127.0.0.1").udpPort(udpPort).open();
             RdmaDevice client = SoftRnic.builder().address("127.0.0.2").udpPort(udpPort).open()) {
            CompletableFuture<Void> serving = CompletableFuture.runAsync(() -> {
                try {
                    EchoServer.serve("127.0.0.1", "7471", 2);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertEquals("HELLO", retrying(() -> EchoClient.echo("127.0.0.2", "127.0.0.1", "7471", "hello")));
            assertEquals("RDMA CM", EchoClient.echo("127.0.0.2", "127.0.0.1", "7471", "rdma cm"));
            serving.get(1, TimeUnit.MINUTES);
        }
    }

    @Test
    void theServerInAProcessOfItsOwn() throws Exception {
        int udpPort = freeUdpPort();
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process server = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
            EchoServer.class.getName(), "127.0.0.1", "7472", "1", Integer.toString(udpPort))
            .redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
             RdmaDevice client = SoftRnic.builder().address("127.0.0.2").udpPort(udpPort).open()) {
            List<String> lines = new ArrayList<>();
            String line;
            while ((line = out.readLine()) != null && !line.startsWith("listening on")) {
                lines.add(line);
            }
            assertTrue(line != null, "the server ended before it listened: " + lines);
            assertEquals("ECHO ME", EchoClient.echo("127.0.0.2", "127.0.0.1", "7472", "echo me"));
            assertTrue(server.waitFor(1, TimeUnit.MINUTES), "the server did not end after its one client");
            assertEquals(0, server.exitValue());
            String echoed = out.readLine();
            assertTrue(echoed != null && echoed.startsWith("echoed echo me to /127.0.0.2:"), echoed);
        } finally {
            server.destroyForcibly();
        }
    }

    /** The server thread may not listen yet: a refused connect (REJ 8) is tried again, for at most a minute. */
    private static String retrying(java.util.concurrent.Callable<String> echo) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (true) {
            try {
                return echo.call();
            } catch (io.jroce.verbs.cm.ConnectionRejectedException e) {
                if (System.nanoTime() - deadline > 0) {
                    throw e;
                }
                Thread.sleep(50);
            }
        }
    }

    private static int freeUdpPort() throws Exception {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            return s.getLocalPort();
        }
    }
}
