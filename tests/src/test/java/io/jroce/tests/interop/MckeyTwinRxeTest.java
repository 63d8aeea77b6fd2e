package io.jroce.tests.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code jroce mckey} on this host against librdmacm's mckey (rdma-core v44) on real rxe in a guest,
 * both ways: rxe's {@code mckey -s} sends its 10 datagrams to a group that jroce's mckey (receiver)
 * joined before the guest booted, and jroce's {@code mckey -s} sends to a group rxe's mckey
 * (receiver) joined. Every run exits 0 and prints mckey's lines. One guest per direction: each side
 * must have joined before the other sends, and two jroce devices on the host's one address in one
 * JVM would be one device to jroce's RDMA CM.
 */
@RequiresRxePeer
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class MckeyTwinRxeTest {
    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Duration RUN = Duration.ofMinutes(2);
    /** The guest's IPv4 address (the container's, which the guest took over), for mckey's -b. */
    private static final String GUEST_IP = "$(/bin/ip -4 -o addr show dev eth0 | sed 's|.*inet \\([0-9.]*\\)/.*|\\1|')";

    private static List<String> receiverLines(String group) {
        return List.of("mckey: starting server", "mckey: joining", "mckey: joined dgid: ::ffff:" + group + " mlid 0x0 sl 0",
            "receiving data transfers", "data transfers complete", "test complete", "return status 0");
    }

    private static List<String> senderLines(String group) {
        return List.of("mckey: starting client", "mckey: joining", "mckey: joined dgid: ::ffff:" + group + " mlid 0x0 sl 0",
            "initiating data transfers", "data transfers complete", "test complete", "return status 0");
    }

    @Test
    void jroceMckeyReceivesWhatRxeMckeySends() throws Exception {
        String group = "239.255.82.1";
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (RxeNetwork network = RxeNetwork.builder().create()) {
            String host = network.hostIpv4();
            JroceCommand receiver = JroceCommand.start(pool, "mckey", "-m", group, "-b", host);
            long deadline = System.nanoTime() + BOOT.toNanos();
            while (!receiver.outputSoFar().contains("mckey: joined dgid")) {
                assertTrue(System.nanoTime() - deadline < 0, "jroce did not join\n" + receiver.outputSoFar());
                Thread.sleep(10);
            }
            try (RxePeer guest = RxePeer.builder().name("rxe-mckey-twin-sender").network(network)
                     .command("mckey -s -m " + group + " -b " + GUEST_IP).start()) {
                RxePeer.Result g = guest.awaitExit(BOOT.plus(RUN));
                JroceCommand.Result r;
                try {
                    r = receiver.await(RUN);
                } catch (java.util.concurrent.TimeoutException e) {
                    receiver.cancel();
                    throw new AssertionError("jroce's mckey did not get the datagrams\n" + receiver.outputSoFar()
                        + "\n--- rxe:\n" + g.console(), e);
                }
                String context = r.transcript() + "\n--- rxe:\n" + g.console();
                assertEquals(0, g.exitStatus(), context);
                assertInOrder(g.output(), senderLinesOfRxe(group), context);
                assertEquals(0, r.status(), context);
                assertEquals(receiverLines(group), r.lines(), context);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void rxeMckeyReceivesWhatJroceMckeySends() throws Exception {
        String group = "239.255.82.2";
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (RxeNetwork network = RxeNetwork.builder().create();
             RxePeer guest = RxePeer.builder().name("rxe-mckey-twin-receiver").network(network)
                 .command("mckey -m " + group + " -b " + GUEST_IP).start()) {
            String host = network.hostIpv4();
            guest.awaitOutput("mckey: joined dgid", BOOT);
            JroceCommand.Result r = JroceCommand.start(pool, "mckey", "-s", "-m", group, "-b", host).await(RUN);
            RxePeer.Result g = guest.awaitExit(RUN);
            String context = r.transcript() + "\n--- rxe:\n" + g.console();
            assertEquals(0, r.status(), context);
            assertEquals(senderLines(group), r.lines(), context);
            assertEquals(0, g.exitStatus(), context);
            assertInOrder(g.output(), List.of("mckey: starting server", "mckey: joining",
                "mckey: joined dgid: ::ffff:" + group, "receiving data transfers", "data transfers complete",
                "test complete", "return status 0"), context);
        } finally {
            pool.shutdownNow();
        }
    }

    /** rxe's sender lines; its joined line's MLID and SL are the kernel's, so only its start is compared. */
    private static List<String> senderLinesOfRxe(String group) {
        return List.of("mckey: starting client", "mckey: joining", "mckey: joined dgid: ::ffff:" + group,
            "initiating data transfers", "data transfers complete", "test complete", "return status 0");
    }

    /** Each expected line starts a line of {@code lines}, in this order. */
    private static void assertInOrder(List<String> lines, List<String> expected, String context) {
        int at = 0;
        for (String e : expected) {
            while (at < lines.size() && !lines.get(at).startsWith(e)) {
                at++;
            }
            assertTrue(at < lines.size(), "'" + e + "' not found in order\n" + context);
            at++;
        }
    }
}
