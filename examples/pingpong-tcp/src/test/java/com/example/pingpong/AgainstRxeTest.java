package com.example.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.testcontainers.RequiresRxePeer;
import io.jroce.testcontainers.RxeNetwork;
import io.jroce.testcontainers.GuestResult;
import io.jroce.testcontainers.RxePeer;
import io.jroce.verbs.exchange.ExchangeException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * This project's own server and client against rdma-core's ibv_rc_pingpong on a real Linux rxe
 * device, in a guest that jroce-testcontainers' {@link RxePeer} runs on a Docker network of its own.
 * The jroce side binds RoCEv2's UDP port 4791 on the host's address on that network, as rxe sends
 * there. Without Docker or the rxe image the class is skipped, saying why (failed under CI=true).
 */
@RequiresRxePeer
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class AgainstRxeTest {
    private static final int ITERATIONS = 10;
    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Duration RUN = Duration.ofMinutes(4);
    /** What ibv_rc_pingpong prints at its end: each side sends and receives ITERATIONS messages of 4096 bytes. */
    private static final String BYTES_LINE = 2 * 4096 * ITERATIONS + " bytes in ";

    private final ExecutorService pool = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    @Test
    void rxesIbvRcPingpongClientPingsOurServer() throws Exception {
        try (RxeNetwork network = RxeNetwork.builder().create();
             ServerSocket listener = new ServerSocket(0, 1, InetAddress.getByName(network.hostIpv4()))) {
            String host = network.hostIpv4();
            Future<List<byte[]>> server = pool.submit(() -> PingServer.serve(host, 4791, listener, ITERATIONS, RUN));
            try (RxePeer client = RxePeer.builder().name("rxe-client").network(network)
                     .command("ibv_rc_pingpong -g 1 -n " + ITERATIONS + " -p " + listener.getLocalPort() + " " + host)
                     .start()) {
                GuestResult c = client.awaitExit(RUN);
                assertEquals(0, c.exitStatus(), c.console());
                assertTrue(c.output().stream().anyMatch(l -> l.startsWith(BYTES_LINE)), c.console());
                List<byte[]> pings = server.get(1, TimeUnit.MINUTES);
                assertEquals(ITERATIONS, pings.size());
                assertTrue(pings.stream().allMatch(p -> p.length == 4096), "ibv_rc_pingpong sends 4096 bytes by default");
            }
        }
    }

    @Test
    void ourClientPingsRxesIbvRcPingpongServer() throws Exception {
        try (RxeNetwork network = RxeNetwork.builder().create();
             RxePeer server = RxePeer.builder().name("rxe-server").network(network)
                 .command("ibv_rc_pingpong -g 1 -n " + ITERATIONS + " -p 18515").start()) {
            server.awaitOutput("local address:", BOOT); // printed just before it listens
            List<byte[]> pongs = null;
            for (long end = System.nanoTime() + BOOT.toNanos(); pongs == null; ) {
                try {
                    pongs = PingClient.ping(network.hostIpv4(), 4791, server.ipv4(), 18515, ITERATIONS);
                } catch (ExchangeException e) {
                    if (e.step() != ExchangeException.Step.CONNECT || System.nanoTime() - end > 0) {
                        throw e;
                    }
                    Thread.sleep(100); // not listening yet
                }
            }
            GuestResult s = server.awaitExit(RUN);
            assertEquals(0, s.exitStatus(), s.console());
            assertTrue(s.output().stream().anyMatch(l -> l.startsWith(BYTES_LINE)), s.console());
            assertEquals(ITERATIONS, pongs.size());
            assertTrue(pongs.stream().allMatch(p -> p.length == 4096), "ibv_rc_pingpong sends 4096 bytes by default");
        }
    }
}
