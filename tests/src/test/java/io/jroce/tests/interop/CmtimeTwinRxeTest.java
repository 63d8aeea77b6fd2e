package io.jroce.tests.interop;

import io.jroce.testcontainers.GuestResult;
import io.jroce.testcontainers.RxePeer;
import io.jroce.testcontainers.RxeNetwork;
import io.jroce.testcontainers.RequiresRxePeer;
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

import io.jroce.testsupport.StartupGuard;

/**
 * {@code jroce cmtime} against librdmacm's cmtime (rdma-core v44) on real rxe in one guest, both
 * roles, over IPv4 and IPv6, 50 connections each: the guest's clients connect to jroce servers on the
 * host's IPv4 and IPv6 addresses and disconnect every connection (no event fails), then the guest
 * serves on :: (for at most 100 s, a guard: cmtime's server runs until it is killed) a jroce client
 * to its IPv4 address and one to its IPv6 address, which go through every step and print cmtime's
 * lines and table. Timings are not asserted.
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
    void jroceAndRxeCmtimeConnectAndDisconnectInBothRolesOverIpv4AndIpv6() throws Exception {
        ExecutorService servers = Executors.newCachedThreadPool();
        ExecutorService clients = Executors.newSingleThreadExecutor();
        try (RxeNetwork network = RxeNetwork.builder().ipv6().create()) {
            String host4 = network.hostIpv4();
            String host6 = network.hostIpv6().orElseThrow(() -> new AssertionError("no IPv6 on the bridge"));
            // one jroce server on each of the host's addresses (a device each); the IPv6 one once the guest's
            // container gives the bridge a port: until then the bridge has no carrier and the host's IPv6
            // address stays tentative. The guest's IPv4 client runs first, which leaves it the time to bind.
            JroceCommand server4 = JroceCommand.start(servers, "cmtime", "-b", host4);
            // the guest's clients, then its server on :: (IPv4 too) for at most 100 s, a guard
            String script = "cmtime -s " + host4 + " -c " + CONNECTIONS + " && cmtime -s " + host6 + " -c " + CONNECTIONS
                + " && echo CMTIME-CLIENTS-DO''NE && { timeout 100 cmtime -b ::; true; }";
            try (RxePeer guest = RxePeer.builder().name("rxe-cmtime-twin").network(network).command(script)
                     .guestTimeout(Duration.ofMinutes(10)).start()) {
                JroceCommand server6 = JroceCommand.startWhileAddressTentative(servers, "cmtime", "-b", host6);
                guest.awaitOutput("CMTIME-CLIENTS-DONE", BOOT.plus(RUN).plus(RUN));
                server4.cancel();
                server6.cancel();
                servers.shutdown();
                assertTrue(servers.awaitTermination(60, TimeUnit.SECONDS), "the jroce servers tear down");
                List<String> guestClients = List.copyOf(guest.consoleLines());
                String context = "--- rxe:\n" + String.join("\n", guestClients);
                assertFalse(guestClients.stream().anyMatch(l -> l.startsWith("event: ")), context);
                List<String> twice = new java.util.ArrayList<>(CLIENT_LINES);
                twice.addAll(CLIENT_LINES);
                assertInOrder(guestClients, twice, context);

                for (String server : List.of(guest.ipv4(),
                    guest.ipv6().orElseThrow(() -> new AssertionError("no IPv6 in the guest")))) {
                    JroceCommand.Result client = null;
                    for (StartupGuard guard = StartupGuard.start(); guard.waiting(); ) {
                        client = JroceCommand.start(clients, "cmtime", "-s", server, "-c", CONNECTIONS).await(RUN);
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
                }
                GuestResult g = guest.awaitExit(Duration.ofMinutes(4));
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
