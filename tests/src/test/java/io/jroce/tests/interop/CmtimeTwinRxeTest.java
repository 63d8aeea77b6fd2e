package io.jroce.tests.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code jroce cmtime} against librdmacm's cmtime (rdma-core v44) on real rxe in one guest, both
 * roles, 50 connections each: the guest's client connects to a jroce server and disconnects every
 * connection (no event fails), then the guest serves (for at most 90 s, a guard: cmtime's server
 * runs until it is killed) a jroce client, which goes through every step and prints cmtime's lines
 * and table. Timings are not asserted.
 */
@RequiresRxePeer
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class CmtimeTwinRxeTest {
    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Duration RUN = Duration.ofMinutes(3);
    private static final String CONNECTIONS = "50";
    private static final List<String> CLIENT_LINES = List.of("creating id", "resolving address", "resolving route",
        "creating qp", "connecting", "disconnecting", "destroying id",
        "step              total ms     max ms     min us  us / conn");
    private static final List<String> ROWS = List.of("create id", "resolve addr", "resolve route", "create qp", "connect",
        "disconnect", "destroy");
    private static final String FIELD = "[ \\d]{7}\\d\\.\\d{2}";

    @Test
    void jroceAndRxeCmtimeConnectAndDisconnectInBothRoles() throws Exception {
        ExecutorService servers = Executors.newSingleThreadExecutor();
        ExecutorService clients = Executors.newSingleThreadExecutor();
        try (RxeNetwork network = RxeNetwork.builder().create()) {
            String host = network.hostIpv4();
            JroceCommand server = JroceCommand.start(servers, "cmtime", "-b", host);
            String script = "cmtime -s " + host + " -c " + CONNECTIONS + " && { timeout 90 cmtime; true; }";
            try (RxePeer guest = RxePeer.builder().name("rxe-cmtime-twin").network(network).command(script)
                     .guestTimeout(Duration.ofMinutes(8)).start()) {
                guest.awaitOutput("destroy      :", BOOT.plus(RUN));
                server.cancel();
                servers.shutdown();
                assertTrue(servers.awaitTermination(60, TimeUnit.SECONDS), "the jroce server tears down");
                List<String> guestClient = List.copyOf(guest.consoleLines());
                String context = "--- rxe:\n" + String.join("\n", guestClient);
                assertFalse(guestClient.stream().anyMatch(l -> l.startsWith("event: ")), context);
                assertInOrder(guestClient, CLIENT_LINES, context);

                JroceCommand.Result client = null;
                for (int attempt = 0; attempt < 300; attempt++) {
                    client = JroceCommand.start(clients, "cmtime", "-s", guest.ipv4(), "-c", CONNECTIONS).await(RUN);
                    if (!client.transcript().contains("RDMA_CM_EVENT_REJECTED, error: 8")) {
                        break; // the guest's server does not listen yet: a start-up guard
                    }
                    Thread.sleep(200);
                }
                context = client.transcript() + "\n--- rxe:\n" + String.join("\n", guest.consoleLines());
                assertEquals(0, client.status(), context);
                assertEquals(CLIENT_LINES, client.lines().subList(0, CLIENT_LINES.size()), context);
                assertEquals(CLIENT_LINES.size() + ROWS.size(), client.lines().size(), context);
                for (int i = 0; i < ROWS.size(); i++) {
                    String row = client.lines().get(CLIENT_LINES.size() + i);
                    assertTrue(Pattern.matches(Pattern.quote(String.format("%-13s: ", ROWS.get(i))) + FIELD + FIELD
                        + FIELD + FIELD, row), row + "\n" + context);
                }
                RxePeer.Result g = guest.awaitExit(RUN);
                assertEquals(0, g.exitStatus(), g.console());
            }
        } finally {
            servers.shutdownNow();
            clients.shutdownNow();
        }
    }

    private static void assertInOrder(List<String> lines, List<String> expected, String context) {
        int at = 0;
        for (String e : expected) {
            while (at < lines.size() && !lines.get(at).equals(e)) {
                at++;
            }
            assertTrue(at < lines.size(), "'" + e + "' missing or out of order\n" + context);
            at++;
        }
    }
}
