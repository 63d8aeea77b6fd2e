package io.jroce.tests.interop;

import io.jroce.testcontainers.GuestResult;
import io.jroce.testcontainers.RxePeer;
import io.jroce.testcontainers.RxeNetwork;
import io.jroce.testcontainers.RequiresRxePeer;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jroce.testsupport.StartupGuard;
import io.jroce.tools.Main;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
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
 * guest that plays both roles in turn, twice: its ucmatose clients make four connections each to
 * jroce servers (port space TCP, then IB), jroce's ucmatose clients make four to its servers (TCP,
 * then IB), its rdma_client talks to jroce's rdma_server and jroce's rdma_client to its
 * rdma_server; in the first round jroce's servers are on IPv4 and its clients on IPv6, in the second
 * the other way round. Every run on either side exits 0 and prints the program's lines.
 *
 * <p>At most one jroce command runs on each host address at a time (each opens a device on UDP port
 * 4791 there). Each jroce server starts while the guest serves the jroce client before it, so it
 * listens long before the guest's next client comes.
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

    /** A jroce ucmatose client's run that the guest's server refused, or before the host's IPv6 address was up. */
    private static final Predicate<String> CMATOSE_REFUSED = t -> t.contains("RDMA_CM_EVENT_REJECTED")
        || t.contains("Cannot assign requested address");
    /** The same for a jroce rdma_client. */
    private static final Predicate<String> EP_REFUSED = t -> t.contains("rdma_connect: Connection refused")
        || t.contains("Cannot assign requested address");

    @Test
    void jroceAndRxeUcmatoseAndRdmaExamplesConnectBothWays() throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        try (RxeNetwork network = RxeNetwork.builder().ipv6().create()) {
            String host4 = network.hostIpv4();
            String host6 = network.hostIpv6().orElseThrow(() -> new AssertionError("no IPv6 on the bridge"));
            // round 1: the guest's clients first (to jroce servers on IPv4), its servers for jroce's IPv6 clients;
            // round 2: the guest's servers first (for jroce's IPv4 clients), its clients to jroce servers on IPv6
            String script = "retry-refused ucmatose -s " + host4 + " -c 4"
                + " && ucmatose -b :: -c 4"
                + " && retry-refused ucmatose -s " + host4 + " -c 4 -P ib"
                + " && ucmatose -b :: -c 4 -P ib"
                + " && rdma_client -s " + host4
                + " && rdma_server -s ::"
                + " && ucmatose -b :: -c 4"
                + " && retry-refused ucmatose -s " + host6 + " -c 4"
                + " && ucmatose -b :: -c 4 -P ib"
                + " && retry-refused ucmatose -s " + host6 + " -c 4 -P ib"
                + " && rdma_server -s ::"
                + " && rdma_client -s " + host6;
            List<Run> servers = new ArrayList<>();
            List<Run> clients = new ArrayList<>();
            servers.add(Run.start(pool, "ucmatose", "-b", host4, "-c", "4"));
            try (RxePeer guest = RxePeer.builder().name("rxe-cm-tools").network(network).command(script)
                     .guestTimeout(Duration.ofMinutes(12)).start()) {
                guest.awaitReady(BOOT);
                String guest4 = guest.ipv4();
                String guest6 = guest.ipv6().orElseThrow(() -> new AssertionError("no IPv6 in the guest"));

                // round 1
                servers.get(0).await();
                servers.add(serverBeforeItsClient(pool, "ucmatose", "-b", host4, "-c", "4", "-P", "ib"));
                awaitConsoleCount(guest, "cmatose: starting server", 1);
                clients.add(Run.client(pool, guest, CMATOSE_REFUSED, "ucmatose", "-s", guest6, "-c", "4"));
                servers.get(1).await();
                servers.add(serverBeforeItsClient(pool, "rdma_server", "-s", host4));
                awaitConsoleCount(guest, "cmatose: starting server", 2);
                clients.add(Run.client(pool, guest, CMATOSE_REFUSED, "ucmatose", "-s", guest6, "-c", "4", "-P", "ib"));
                servers.get(2).await();
                awaitConsoleCount(guest, "rdma_server: start", 1);
                clients.add(Run.client(pool, guest, EP_REFUSED, "rdma_client", "-s", guest6));

                // round 2: each jroce server starts while the guest serves the jroce client before it
                servers.add(serverBeforeItsClient(pool, "ucmatose", "-b", host6, "-c", "4"));
                awaitConsoleCount(guest, "cmatose: starting server", 3);
                clients.add(Run.client(pool, guest, CMATOSE_REFUSED, "ucmatose", "-s", guest4, "-c", "4"));
                servers.get(3).await();
                servers.add(serverBeforeItsClient(pool, "ucmatose", "-b", host6, "-c", "4", "-P", "ib"));
                awaitConsoleCount(guest, "cmatose: starting server", 4);
                clients.add(Run.client(pool, guest, CMATOSE_REFUSED, "ucmatose", "-s", guest4, "-c", "4", "-P", "ib"));
                servers.get(4).await();
                servers.add(serverBeforeItsClient(pool, "rdma_server", "-s", host6));
                awaitConsoleCount(guest, "rdma_server: start", 2);
                clients.add(Run.client(pool, guest, EP_REFUSED, "rdma_client", "-s", guest4));
                servers.get(5).await();

                GuestResult g = guest.awaitExit(RUN);
                StringBuilder sb = new StringBuilder();
                servers.forEach(r -> sb.append(r.transcript()).append('\n'));
                clients.forEach(r -> sb.append(r.transcript()).append('\n'));
                String context = sb + "--- rxe:\n" + g.console();
                assertEquals(0, g.exitStatus(), context);
                for (Run r : servers) {
                    assertEquals(0, r.await(), context);
                }
                List<Integer> ucmatose = List.of(0, 1, 3, 4);
                for (int i : ucmatose) {
                    assertEquals(SERVER_LINES, servers.get(i).lines(), context);
                    assertEquals(CLIENT_LINES, clients.get(i).lines(), context);
                }
                for (int i : List.of(2, 5)) {
                    assertEquals(List.of("rdma_server: start", "rdma_server: end 0"), servers.get(i).lines(), context);
                    assertEquals(List.of("rdma_client: start", "rdma_client: end 0"), clients.get(i).lines(), context);
                }

                // rxe's side: eight ucmatose runs (four clients, four servers), and each example twice, end with 0
                List<String> out = g.output();
                assertEquals(8, Collections.frequency(out, "return status 0"), context);
                assertEquals(4, Collections.frequency(out, "cmatose: starting server"), context);
                assertEquals(4, Collections.frequency(out, "disconnected"), context);
                assertEquals(2, Collections.frequency(out, "rdma_client: end 0"), context);
                assertEquals(2, Collections.frequency(out, "rdma_server: end 0"), context);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A jroce server started while the guest serves the jroce client that comes before the guest's
     * own next client, once it printed its first line: it then opens its device and listens at once,
     * and that client's run (the guest's next command waits for it) takes far longer.
     */
    private static Run serverBeforeItsClient(ExecutorService pool, String... args) throws InterruptedException {
        Run r = Run.start(pool, args);
        r.awaitLine(args[0].equals("ucmatose") ? "cmatose: starting server" : "rdma_server: start");
        return r;
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
            for (StartupGuard guard = StartupGuard.start(); guard.waiting(); ) {
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
