package io.jroce.tests.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jroce.tools.Main;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code jroce ucmatose}, {@code jroce rdma_server} and {@code jroce rdma_client} on this host
 * against librdmacm's ucmatose, rdma_server and rdma_client (rdma-core v44) on real rxe, in one
 * guest that plays both roles in turn: its ucmatose clients make four connections each to jroce
 * servers (port space TCP, then IB) over IPv4, jroce's ucmatose clients make four to its servers
 * (TCP, then IB) over IPv6, its rdma_client talks to jroce's rdma_server over IPv4 and jroce's
 * rdma_client to its rdma_server over IPv6. Every run on either side exits 0 and prints the
 * program's lines.
 *
 * <p>At most one jroce command runs on each host address at a time (each opens a device on UDP port
 * 4791 there): servers on the host's IPv4 address, clients on its IPv6 address. Each jroce server
 * starts while the guest serves the jroce client before it, so it listens long before the guest's
 * next client comes.
 */
@RequiresRxePeer
@Timeout(value = 20, unit = TimeUnit.MINUTES)
class CmToolsTwinsRxeTest {
    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Duration RUN = Duration.ofMinutes(5);
    private static final List<String> SERVER_LINES = List.of("cmatose: starting server", "initiating data transfers",
        "completing sends", "receiving data transfers", "data transfers complete", "cmatose: disconnecting",
        "disconnected", "test complete", "return status 0");
    private static final List<String> CLIENT_LINES = List.of("cmatose: starting client", "cmatose: connecting",
        "receiving data transfers", "sending replies", "data transfers complete", "test complete", "return status 0");

    @Test
    void jroceAndRxeUcmatoseAndRdmaExamplesConnectBothWays() throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        try (RxeNetwork network = RxeNetwork.builder().ipv6().create()) {
            String host4 = network.hostIpv4();
            String script = "retry-refused ucmatose -s " + host4 + " -c 4"
                + " && ucmatose -b :: -c 4"
                + " && retry-refused ucmatose -s " + host4 + " -c 4 -P ib"
                + " && ucmatose -b :: -c 4 -P ib"
                + " && rdma_client -s " + host4
                + " && rdma_server -s ::";
            Run tcpServer = Run.start(pool, "ucmatose", "-b", host4, "-c", "4");
            try (RxePeer guest = RxePeer.builder().name("rxe-cm-tools").network(network).command(script)
                     .guestTimeout(Duration.ofMinutes(12)).start()) {
                guest.awaitReady(BOOT);
                String guest6 = guest.ipv6().orElseThrow(() -> new AssertionError("no IPv6 in the guest"));
                Predicate<String> cmatoseRefused = t -> t.contains("RDMA_CM_EVENT_REJECTED")
                    || t.contains("Cannot assign requested address");

                int tcpStatus = tcpServer.await();
                Run ibServer = Run.start(pool, "ucmatose", "-b", host4, "-c", "4", "-P", "ib");
                ibServer.awaitLine("cmatose: starting server");
                awaitConsoleCount(guest, "cmatose: starting server", 1);
                Run tcpClient = Run.client(pool, guest, cmatoseRefused, "ucmatose", "-s", guest6, "-c", "4");

                int ibStatus = ibServer.await();
                Run epServer = Run.start(pool, "rdma_server", "-s", host4);
                epServer.awaitLine("rdma_server: start");
                awaitConsoleCount(guest, "cmatose: starting server", 2);
                Run ibClient = Run.client(pool, guest, cmatoseRefused, "ucmatose", "-s", guest6, "-c", "4", "-P", "ib");

                int epServerStatus = epServer.await();
                awaitConsoleCount(guest, "rdma_server: start", 1);
                Run epClient = Run.client(pool, guest, t -> t.contains("rdma_connect: Connection refused")
                    || t.contains("Cannot assign requested address"), "rdma_client", "-s", guest6);

                RxePeer.Result g = guest.awaitExit(RUN);
                String context = String.join("\n", tcpServer.transcript(), ibServer.transcript(), epServer.transcript(),
                    tcpClient.transcript(), ibClient.transcript(), epClient.transcript(), "--- rxe:", g.console());
                assertEquals(0, g.exitStatus(), context);
                assertEquals(0, tcpStatus, context);
                assertEquals(0, ibStatus, context);
                assertEquals(0, epServerStatus, context);
                assertEquals(SERVER_LINES, tcpServer.lines(), context);
                assertEquals(SERVER_LINES, ibServer.lines(), context);
                assertEquals(CLIENT_LINES, tcpClient.lines(), context);
                assertEquals(CLIENT_LINES, ibClient.lines(), context);
                assertEquals(List.of("rdma_server: start", "rdma_server: end 0"), epServer.lines(), context);
                assertEquals(List.of("rdma_client: start", "rdma_client: end 0"), epClient.lines(), context);

                // rxe's side: four ucmatose runs (two clients, two servers) and both examples end with 0
                List<String> out = g.output();
                assertEquals(4, Collections.frequency(out, "return status 0"), context);
                assertEquals(2, Collections.frequency(out, "cmatose: starting server"), context);
                assertEquals(2, Collections.frequency(out, "disconnected"), context);
                assertEquals(1, Collections.frequency(out, "rdma_client: end 0"), context);
                assertEquals(1, Collections.frequency(out, "rdma_server: end 0"), context);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Waits until the guest's console has {@code n} lines that are {@code line}. */
    private static void awaitConsoleCount(RxePeer guest, String line, int n) throws InterruptedException {
        long deadline = System.nanoTime() + RUN.toNanos();
        while (Collections.frequency(guest.consoleLines(), line) < n) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no " + n + " x '" + line + "' from the guest:\n"
                    + String.join("\n", guest.consoleLines()));
            }
            Thread.sleep(50);
        }
    }

    /** One jroce command line run in this JVM on a thread of its own, stdout and stderr together. */
    private static final class Run {
        private final Future<Integer> status;
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private final String[] args;

        private Run(ExecutorService pool, String... args) {
            this.args = args;
            PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
            status = pool.submit(() -> Main.run(args, print, print));
        }

        static Run start(ExecutorService pool, String... args) {
            return new Run(pool, args);
        }

        /**
         * A client run again while {@code refused} says the guest's server does not listen yet (a
         * REJ from its kernel; any REJ, for a kernel that has not resolved the host's IPv6
         * neighbour yet) or the host cannot bind its IPv6 address yet (duplicate address detection):
         * at most 600 times, 200 ms apart. A guard, not a pace. It must then succeed.
         */
        static Run client(ExecutorService pool, RxePeer guest, Predicate<String> refused, String... args)
            throws Exception {
            Run r = null;
            for (int attempt = 0; attempt < 600; attempt++) {
                r = start(pool, args);
                int s = r.await();
                if (s == 0 || !refused.test(r.text())) {
                    assertEquals(0, s, r.transcript() + "\n--- rxe so far:\n" + String.join("\n", guest.consoleLines()));
                    return r;
                }
                Thread.sleep(200);
            }
            throw new AssertionError("the guest's server never listened\n" + r.transcript());
        }

        int await() throws Exception {
            return status.get(RUN.toMillis(), TimeUnit.MILLISECONDS);
        }

        void awaitLine(String line) throws InterruptedException {
            long deadline = System.nanoTime() + RUN.toNanos();
            while (!lines().contains(line)) {
                if (System.nanoTime() - deadline > 0 || status.isDone()) {
                    throw new AssertionError("no '" + line + "' from " + transcript());
                }
                Thread.sleep(10);
            }
        }

        String text() {
            return out.toString(StandardCharsets.UTF_8);
        }

        List<String> lines() {
            return text().lines().toList();
        }

        String transcript() {
            return "--- jroce " + String.join(" ", args) + "\n" + text();
        }
    }
}
