package io.jroce.tests.interop;

import io.jroce.testcontainers.GuestResult;
import io.jroce.testcontainers.RxePeer;
import io.jroce.testcontainers.RxeNetwork;
import io.jroce.testcontainers.RequiresRxePeer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.jroce.testsupport.StartupGuard;

/**
 * {@code jroce rping} on this host against librdmacm's rping (rdma-core v44) on real rxe in one
 * guest, over IPv4 and IPv6, both roles, speaking rping's whole protocol: the RDMA CM connection,
 * the 16-byte buffer messages, the RDMA READ of the client's ping and the RDMA WRITE back, -V's
 * comparison. The guest serves three runs (jroce's client over IPv4, over IPv6, and over IPv4 with
 * -S 4096, four 1024-byte packets a READ and a WRITE), then runs two clients of 300 pings against
 * jroce servers (IPv4, IPv6). Every run exits 0 on both sides, and the ping data each side prints
 * is the same, line for line, and is rping's pattern.
 */
@RequiresRxePeer
@Timeout(value = 20, unit = TimeUnit.MINUTES)
class RpingTwinRxeTest {
    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Duration RUN = Duration.ofMinutes(5);
    private static final int PINGS = 300;
    private static final int LARGE = 4096;
    private static final int LARGE_PINGS = 50;

    @Test
    void jroceAndRxeRpingPingEachOtherOverIpv4AndIpv6() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (RxeNetwork network = RxeNetwork.builder().ipv6().create()) {
            String host4 = network.hostIpv4();
            String host6 = network.hostIpv6().orElseThrow(() -> new AssertionError("no IPv6 on the bridge"));
            String script = "rping -s -a 0.0.0.0 -V -v"
                + " && rping -s -a :: -V -v"
                + " && rping -s -a 0.0.0.0 -S " + LARGE + " -V -v"
                + " && retry-refused rping -c -a " + host4 + " -C " + PINGS + " -V -v"
                + " && retry-refused rping -c -a " + host6 + " -C " + PINGS + " -V -v";
            try (RxePeer guest = RxePeer.builder().name("rxe-rping-twin").network(network).command(script)
                     .guestTimeout(Duration.ofMinutes(12)).start()) {
                guest.awaitReady(BOOT);
                String guest4 = guest.ipv4();
                String guest6 = guest.ipv6().orElseThrow(() -> new AssertionError("no IPv6 in the guest"));
                List<JroceCommand.Result> clients = List.of(
                    client(pool, guest, "-c", "-a", guest4, "-C", Integer.toString(PINGS), "-V", "-v"),
                    client(pool, guest, "-c", "-a", guest6, "-C", Integer.toString(PINGS), "-V", "-v"),
                    client(pool, guest, "-c", "-a", guest4, "-C", Integer.toString(LARGE_PINGS), "-S",
                        Integer.toString(LARGE), "-V", "-v"));
                List<JroceCommand.Result> servers = List.of(
                    server(pool, guest, "-s", "-a", host4, "-V", "-v"),
                    server(pool, guest, "-s", "-a", host6, "-V", "-v"));
                GuestResult g = guest.awaitExit(RUN);
                List<String> guestLines = stdoutLines(g.output());
                String context = transcripts(clients, servers) + "\n--- rxe:\n" + g.console();
                assertEquals(0, g.exitStatus(), context);
                for (JroceCommand.Result r : clients) {
                    assertEquals(0, r.status(), context);
                    assertTrue(r.lines().contains("client DISCONNECT EVENT..."), context);
                }
                for (JroceCommand.Result r : servers) {
                    assertEquals(0, r.status(), context);
                    assertEquals(List.of("server DISCONNECT EVENT...", "wait for RDMA_READ_ADV state 10"),
                        r.lines().stream().filter(l -> !l.contains("ping data: ")).toList(), context);
                }

                // what rxe's servers READ is what jroce's clients got WRITTEN back, and rping's pattern
                List<String> expectedServed = new ArrayList<>(pattern(PINGS, 64));
                expectedServed.addAll(pattern(PINGS, 64));
                expectedServed.addAll(pattern(LARGE_PINGS, LARGE));
                assertEquals(expectedServed, data(guestLines, "server ping data: "), context);
                List<String> jroceClients = new ArrayList<>();
                clients.forEach(r -> jroceClients.addAll(data(r.lines(), "ping data: ")));
                assertEquals(expectedServed, jroceClients, context);

                // what jroce's servers READ is what rxe's clients got WRITTEN back
                List<String> expectedClients = new ArrayList<>(pattern(PINGS, 64));
                expectedClients.addAll(pattern(PINGS, 64));
                assertEquals(expectedClients, data(guestLines, "ping data: "), context);
                List<String> jroceServers = new ArrayList<>();
                servers.forEach(r -> jroceServers.addAll(data(r.lines(), "server ping data: ")));
                assertEquals(expectedClients, jroceServers, context);
                assertEquals(3, Collections.frequency(g.output(), "server DISCONNECT EVENT..."), context);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A jroce client, run again while the guest's server does not listen yet (REJ 8 from the
     * guest's kernel; any REJ, as the guest's retry-refused, for a kernel that has not resolved the
     * host's IPv6 neighbour yet) or the host cannot bind its IPv6 address yet (duplicate address
     * detection): at most 600 times, 200 ms apart. A guard, not a pace. It must then succeed.
     */
    private static JroceCommand.Result client(ExecutorService pool, RxePeer guest, String... args) throws Exception {
        JroceCommand.Result r = null;
        for (StartupGuard guard = StartupGuard.start(); guard.waiting(); ) {
            r = JroceCommand.start(pool, rping(args)).await(RUN);
            String t = r.transcript();
            if (r.status() == 0 || !(t.contains("RDMA_CM_EVENT_REJECTED") || t.contains("cannot open device"))) {
                assertEquals(0, r.status(), abbreviated(t) + "\n--- rxe so far:\n" + String.join("\n",
                    guest.consoleLines().subList(Math.max(0, guest.consoleLines().size() - 40), guest.consoleLines().size())));
                return r;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the guest's rping server never listened\n" + r.transcript() + "\n--- rxe:\n"
            + String.join("\n", guest.consoleLines()));
    }

    /** A jroce server, started again while the host cannot bind its IPv6 address yet. */
    private static JroceCommand.Result server(ExecutorService pool, RxePeer guest, String... args) throws Exception {
        JroceCommand.Result r = null;
        for (StartupGuard guard = StartupGuard.start(); guard.waiting(); ) {
            r = JroceCommand.start(pool, rping(args)).await(RUN);
            if (r.status() == 0 || !r.transcript().contains("cannot open device")) {
                return r;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the host never bound its address\n" + r.transcript() + "\n--- rxe:\n"
            + String.join("\n", guest.consoleLines()));
    }

    /**
     * The guest's stdout lines without its stderr lines. rping's clients write into a pipe (the
     * guest's retry-refused tees their output), which makes their stdout block-buffered while
     * stderr is not: "client DISCONNECT EVENT..." then lands inside a ping data line on the console.
     */
    private static List<String> stdoutLines(List<String> console) {
        String text = String.join("\n", console) + "\n";
        for (String stderr : List.of("client DISCONNECT EVENT...\n", "server DISCONNECT EVENT...\n",
            "wait for RDMA_READ_ADV state 10\n")) {
            text = text.replace(stderr, "");
        }
        return text.lines().toList();
    }

    private static String[] rping(String... args) {
        String[] line = new String[args.length + 1];
        line[0] = "rping";
        System.arraycopy(args, 0, line, 1, args.length);
        return line;
    }

    /** The data of the lines that start with {@code prefix} ("ping data: " leaves out the server's lines). */
    private static List<String> data(List<String> lines, String prefix) {
        return lines.stream().filter(l -> l.startsWith(prefix)).map(l -> l.substring(prefix.length())).toList();
    }

    /** rping's ping data for pings 0..count-1 of {@code size} bytes, worked out here independently. */
    private static List<String> pattern(int count, int size) {
        return IntStream.range(0, count).mapToObj(n -> {
            StringBuilder sb = new StringBuilder("rdma-ping-" + n + ": ");
            char c = (char) ('A' + n % 58);
            while (sb.length() < size - 1) {
                sb.append(c);
                c = c == 'z' ? 'A' : (char) (c + 1);
            }
            return sb.toString();
        }).toList();
    }

    private static String transcripts(List<JroceCommand.Result> clients, List<JroceCommand.Result> servers) {
        StringBuilder sb = new StringBuilder();
        for (JroceCommand.Result r : clients) {
            sb.append("--- jroce client: ").append(abbreviated(r.transcript())).append('\n');
        }
        for (JroceCommand.Result r : servers) {
            sb.append("--- jroce server: ").append(abbreviated(r.transcript())).append('\n');
        }
        return sb.toString();
    }

    private static String abbreviated(String transcript) {
        return transcript.length() < 4000 ? transcript : transcript.substring(0, 2000) + "\n...\n"
            + transcript.substring(transcript.length() - 2000);
    }
}
