package io.jroce.tests.interop;

import io.jroce.testcontainers.GuestResult;
import io.jroce.testcontainers.RxePeer;
import io.jroce.testcontainers.RxeNetwork;
import io.jroce.testcontainers.RequiresRxePeer;
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
 * {@code jroce mckey} on this host against librdmacm's mckey (rdma-core v44) on real rxe in one guest,
 * both ways: rxe's {@code mckey -s} sends its 10 datagrams to a group that jroce's mckey (receiver)
 * joined before the guest booted; then jroce's {@code mckey -s} sends to a group rxe's mckey
 * (receiver) joined, and jroce's {@code mckey -s -o} (a send-only member: no QP attached, no IGMP
 * membership) to a third group another rxe receiver joined. Every run exits 0 and prints mckey's
 * lines. One guest serves all three in turn: each side joins before the other sends (the guest's
 * receivers print their joined line, which the host waits for; jroce's receiver joins before the
 * guest starts), and jroce's commands run one after another, so its devices on the host's one
 * address never coexist in this JVM (jroce's RDMA CM would take two for one).
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
    void jroceAndRxeMckeySendToEachOthersGroups() throws Exception {
        String fromRxe = "239.255.82.1";
        String fromJroce = "239.255.82.2";
        String fromJroceSendOnly = "239.255.82.3";
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (RxeNetwork network = RxeNetwork.builder().create()) {
            String host = network.hostIpv4();
            JroceCommand receiver = JroceCommand.start(pool, "mckey", "-m", fromRxe, "-b", host);
            long deadline = System.nanoTime() + BOOT.toNanos();
            while (!receiver.outputSoFar().contains("mckey: joined dgid")) {
                assertTrue(System.nanoTime() - deadline < 0, "jroce did not join\n" + receiver.outputSoFar());
                Thread.sleep(10);
            }
            String script = "mckey -s -m " + fromRxe + " -b " + GUEST_IP + " && mckey -m " + fromJroce + " -b " + GUEST_IP
                + " && mckey -m " + fromJroceSendOnly + " -b " + GUEST_IP;
            try (RxePeer guest = RxePeer.builder().name("rxe-mckey-twin").network(network).command(script).start()) {
                // rxe sends, jroce receives
                JroceCommand.Result r;
                try {
                    r = receiver.await(BOOT.plus(RUN));
                } catch (java.util.concurrent.TimeoutException e) {
                    receiver.cancel();
                    throw new AssertionError("jroce's mckey did not get the datagrams\n" + receiver.outputSoFar()
                        + "\n--- rxe:\n" + String.join("\n", guest.consoleLines()), e);
                }
                String context = r.transcript() + "\n--- rxe so far:\n" + String.join("\n", guest.consoleLines());
                assertEquals(0, r.status(), context);
                assertEquals(receiverLines(fromRxe), r.lines(), context);

                // jroce sends (a full member, then a send-only one), rxe receives
                for (String group : List.of(fromJroce, fromJroceSendOnly)) {
                    guest.awaitOutput("mckey: joined dgid: ::ffff:" + group, RUN);
                    List<String> args = new java.util.ArrayList<>(List.of("mckey", "-s", "-m", group, "-b", host));
                    if (group.equals(fromJroceSendOnly)) {
                        args.add("-o");
                    }
                    JroceCommand.Result sent = JroceCommand.start(pool, args.toArray(String[]::new)).await(RUN);
                    context = sent.transcript() + "\n--- rxe so far:\n" + String.join("\n", guest.consoleLines());
                    assertEquals(0, sent.status(), context);
                    assertEquals(senderLines(group), sent.lines(), context);
                }

                GuestResult g = guest.awaitExit(RUN);
                context = "--- rxe:\n" + g.console();
                assertEquals(0, g.exitStatus(), context);
                List<String> expected = new java.util.ArrayList<>(senderLinesOfRxe(fromRxe));
                for (String group : List.of(fromJroce, fromJroceSendOnly)) {
                    expected.addAll(List.of("mckey: starting server", "mckey: joining",
                        "mckey: joined dgid: ::ffff:" + group, "receiving data transfers", "data transfers complete",
                        "test complete", "return status 0"));
                }
                assertInOrder(g.output(), expected, context);
            }
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
