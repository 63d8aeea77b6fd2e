package io.jroce.tests.interop;

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
 * guest, both roles, two connections of 20 datagrams each way: the guest's udaddy server answers the
 * SIDR_REQs of jroce's client and replies to the address of the GRH it received and the QPN of the
 * immediate data; then the guest's udaddy client resolves a jroce server, which does the same. Every
 * run exits 0 and prints udaddy's lines.
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
    private static final String LISTENING = "UDADDY-LISTENING";

    @Test
    void jroceAndRxeUdaddyExchangeDatagramsInBothRoles() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (RxeNetwork network = RxeNetwork.builder().create()) {
            String host = network.hostIpv4();
            // The guest's client is run again while the host answers its SIDR_REQ with status 1
            // (jroce's client device still open, or jroce's server not listening yet): a guard.
            // udaddy prints nothing once it listens, and a client run again while a server starts can have
            // one SIDR_REQ refused (status 1) and the other accepted, which takes one of the server's -c
            // slots for a client that is gone. So the guest says when its udaddy listens (rdma's CM ID
            // table shows the LISTEN state), and the jroce client starts only then.
            String script = "udaddy -c 2 -C 20 & s=$!;"
                + " until rdma res show cm_id 2>/dev/null | grep -q LISTEN; do sleep 0.1; done; echo UDADDY-LISTEN''ING;"
                + " wait $s && i=0 && while :; do udaddy -s " + host + " -c 2 -C 20 > /tmp/udaddy.out 2>&1; rc=$?;"
                + " cat /tmp/udaddy.out; [ $rc -eq 0 ] && break;"
                + " grep -q '" + UNANSWERED + "' /tmp/udaddy.out && [ $i -lt 120 ] || exit $rc;"
                + " i=$((i+1)); sleep 1; done";
            try (RxePeer guest = RxePeer.builder().name("rxe-udaddy-twin").network(network).command(script)
                     .guestTimeout(Duration.ofMinutes(10)).start()) {
                guest.awaitOutput(LISTENING, BOOT);
                JroceCommand.Result client =
                    JroceCommand.start(pool, "udaddy", "-s", guest.ipv4(), "-c", "2", "-C", "20").await(RUN);
                String context = client.transcript() + "\n--- rxe so far:\n" + String.join("\n", guest.consoleLines());
                assertEquals(0, client.status(), context);
                assertEquals(CLIENT_LINES, client.lines(), context);

                JroceCommand server = JroceCommand.start(pool, "udaddy", "-b", host, "-c", "2", "-C", "20");
                JroceCommand.Result served;
                try {
                    served = server.await(RUN);
                } catch (java.util.concurrent.TimeoutException e) {
                    server.cancel();
                    throw new AssertionError("the jroce server was never served\n--- rxe:\n"
                        + String.join("\n", guest.consoleLines()), e);
                }
                RxePeer.Result g = guest.awaitExit(RUN);
                context = served.transcript() + "\n--- rxe:\n" + g.console();
                assertEquals(0, served.status(), context);
                assertEquals(SERVER_LINES, served.lines(), context);
                assertEquals(0, g.exitStatus(), context);
                // udaddy's server, then its client's last run, each line in order
                List<String> lines = g.output();
                int at = 0;
                for (String expected : SERVER_LINES) {
                    at = indexFrom(lines, expected, at, context);
                }
                at = Math.max(at, lines.lastIndexOf("udaddy: starting client"));
                for (String expected : CLIENT_LINES) {
                    at = indexFrom(lines, expected, at, context);
                }
            }
        } finally {
            pool.shutdownNow();
        }
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
