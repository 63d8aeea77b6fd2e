package io.jroce.tests.interop;

import io.jroce.testcontainers.GuestResult;
import io.jroce.testcontainers.RxePeer;
import io.jroce.testcontainers.RxeNetwork;
import io.jroce.testcontainers.RequiresRxePeer;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code jroce udaddy} on this host against librdmacm's udaddy (rdma-core v44) on real rxe in one
 * guest, both roles, over IPv4 and IPv6, two connections of 20 datagrams each way: the guest's udaddy
 * servers (on its default address, then on ::) answer the SIDR_REQs of jroce's clients (to the guest's
 * IPv4, then its IPv6 address) and reply to the address of the GRH they received and the QPN of the
 * immediate data; then the guest's udaddy clients resolve jroce servers on the host's IPv4 and IPv6
 * addresses, which do the same. Every run exits 0 and prints udaddy's lines.
 */
@RequiresRxePeer
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class UdaddyTwinRxeTest {
    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Duration RUN = Duration.ofMinutes(3);
    private static final String UNANSWERED = "RDMA_CM_EVENT_UNREACHABLE, error: 1";
    private static final List<String> SERVER_LINES = List.of("udaddy: starting server", "receiving data transfers",
        "sending replies", "data transfers complete", "test complete", "return status 0");
    private static final List<String> CLIENT_LINES = List.of("udaddy: starting client", "udaddy: connecting",
        "initiating data transfers", "receiving data transfers", "data transfers complete", "test complete",
        "return status 0");

    /** What the guest prints once its udaddy server listens (written split in the command, which the console echoes). */
    private static final String LISTENING = "UDADDY-LISTENING ";

    @Test
    void jroceAndRxeUdaddyExchangeDatagramsInBothRolesOverIpv4AndIpv6() throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        try (RxeNetwork network = RxeNetwork.builder().ipv6().create()) {
            String host4 = network.hostIpv4();
            String host6 = network.hostIpv6().orElseThrow(() -> new AssertionError("no IPv6 on the bridge"));
            // udaddy prints nothing once it listens, and a client run again while a server starts can have
            // one SIDR_REQ refused (status 1) and the other accepted, which takes one of the server's -c
            // slots for a client that is gone. So the guest says when each udaddy server listens (rdma's CM
            // ID table shows the LISTEN state), and the jroce client starts only then. Its servers: one on
            // the default address for jroce's IPv4 client, one on :: for the IPv6 client.
            // The guest's clients (IPv4, then IPv6) are run again while the host answers a SIDR_REQ with
            // status 1 (a jroce device of the previous run still open): a guard.
            String script = "S(){ udaddy \"$@\" -c 2 -C 20 & s=$!;"
                + " until rdma res show cm_id 2>/dev/null | grep -q LISTEN; do sleep 0.1; done; echo UDADDY-LISTEN''ING $#;"
                + " wait $s; };"
                + " C(){ i=0; while :; do udaddy -s $1 -c 2 -C 20 > /tmp/udaddy.out 2>&1; rc=$?;"
                + " cat /tmp/udaddy.out; [ $rc -eq 0 ] && break;"
                + " grep -q '" + UNANSWERED + "' /tmp/udaddy.out && [ $i -lt 120 ] || exit $rc;"
                + " i=$((i+1)); sleep 1; done; };"
                + " S && S -b :: && C " + host4 + " && C " + host6;
            try (RxePeer guest = RxePeer.builder().name("rxe-udaddy-twin").network(network).command(script)
                     .guestTimeout(Duration.ofMinutes(12)).start()) {
                String guest6 = guest.ipv6().orElseThrow(() -> new AssertionError("no IPv6 in the guest"));
                // "S" has no arguments: the marker says 0; "S -b ::" says 2
                client(pool, guest, LISTENING + "0", guest.ipv4());
                client(pool, guest, LISTENING + "2", guest6);

                // both jroce servers at once (one device on each address): the guest's IPv6 client starts
                // as soon as its IPv4 one is done
                JroceCommand server4 = JroceCommand.start(pool, "udaddy", "-b", host4, "-c", "2", "-C", "20");
                JroceCommand server6 = JroceCommand.startWhileAddressTentative(pool, "udaddy", "-b", host6, "-c", "2", "-C", "20");
                served(server4, guest);
                served(server6, guest);
                GuestResult g = guest.awaitExit(RUN);
                String context = "--- rxe:\n" + g.console();
                assertEquals(0, g.exitStatus(), context);
                // udaddy's two servers, then its clients' last runs, each line in order
                List<String> lines = g.output();
                int at = 0;
                for (int server = 0; server < 2; server++) {
                    for (String expected : SERVER_LINES) {
                        at = indexFrom(lines, expected, at, context);
                    }
                }
                for (int client = 0; client < 2; client++) {
                    at = lastRunOf(lines, at, context);
                    for (String expected : CLIENT_LINES) {
                        at = indexFrom(lines, expected, at, context);
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** A jroce client of the guest's server that prints {@code listening}, which must then succeed. */
    private static void client(ExecutorService pool, RxePeer guest, String listening, String server) throws Exception {
        guest.awaitOutput(listening, BOOT);
        JroceCommand.Result client = JroceCommand.start(pool, "udaddy", "-s", server, "-c", "2", "-C", "20").await(RUN);
        String context = client.transcript() + "\n--- rxe so far:\n" + String.join("\n", guest.consoleLines());
        assertEquals(0, client.status(), context);
        assertEquals(CLIENT_LINES, client.lines(), context);
    }

    /** The jroce server's run, which must have served the guest's client and printed udaddy's lines. */
    private static void served(JroceCommand server, RxePeer guest) throws Exception {
        JroceCommand.Result served;
        try {
            served = server.await(RUN);
        } catch (java.util.concurrent.TimeoutException e) {
            server.cancel();
            throw new AssertionError("the jroce server was never served\n" + server.outputSoFar() + "\n--- rxe:\n"
                + String.join("\n", guest.consoleLines()), e);
        }
        String context = served.transcript() + "\n--- rxe:\n" + String.join("\n", guest.consoleLines());
        assertEquals(0, served.status(), context);
        assertEquals(SERVER_LINES, served.lines(), context);
    }

    /** Where the guest's last client run from {@code from} on starts: the one that ended with status 0. */
    private static int lastRunOf(List<String> lines, int from, String context) {
        int end = indexFrom(lines, "return status 0", from, context);
        int start = from;
        for (int i = from; i < end; i++) {
            if (lines.get(i).equals("udaddy: starting client")) {
                start = i;
            }
        }
        return start;
    }

    private static int indexFrom(List<String> lines, String expected, int from, String context) {
        for (int i = from; i < lines.size(); i++) {
            if (lines.get(i).equals(expected)) {
                return i + 1;
            }
        }
        throw new AssertionError("'" + expected + "' not found after line " + from + "\n" + context);
    }
}
