package io.jroce.tests.interop;

import io.jroce.testcontainers.GuestResult;
import io.jroce.testcontainers.RequiresRxePeer;
import io.jroce.testcontainers.RxeNetwork;
import io.jroce.testcontainers.RxePeer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A soak of the lab: one guest runs rdma-core's ibv_rc_pingpong as the client of a jroce server on
 * the host, run after run (1-byte messages, 1000 iterations, over the global IPv6 GID at path MTU
 * 1024 by default: the step of {@link RcPingpongMatrixRxeTest} that once stalled in CI). A run that
 * lasts more than a few seconds has stalled: the guest prints what rxe and its network say (rxe's
 * hw_counters, {@code rdma res show qp}, the neighbour table, eth0's counters, the route to the host
 * and a ping of it) and stops; jroce's side gives up after its --timeout and prints its report; the
 * stalled run's capture, jroce's transcript and the guest's console are written to the soak's
 * directory. docs/interop-lab.md tells what such a stall looked like.
 *
 * <p>Run by hand only ({@code -Dtest=RcPingpongSoak}, with {@code -Djroce.soak.runs=N},
 * {@code -Djroce.soak.mtu}, {@code -Djroce.soak.iters}, {@code -Djroce.soak.dir=DIR}): its name
 * matches none of the suite's test patterns, so CI never runs it. Each run takes about half a
 * second under TCG.
 */
@RequiresRxePeer
@Timeout(value = 12, unit = TimeUnit.HOURS)
class RcPingpongSoak {
    /** Longer than any healthy run (about 0.5 s), short enough to find the guest still stalled. */
    private static final int GUEST_STALL_S = 4;
    private static final String JROCE_SILENCE_S = "20";

    @Test
    void rxeClientRunAfterRunAgainstAJroceServer() throws Exception {
        int runs = Integer.getInteger("jroce.soak.runs", 200);
        String mtu = System.getProperty("jroce.soak.mtu", "1024");
        String iters = System.getProperty("jroce.soak.iters", "1000");
        Path dir = Path.of(System.getProperty("jroce.soak.dir", "target/soak"));
        Files.createDirectories(dir);
        try (RxeNetwork network = RxeNetwork.builder().ipv6().mtu(9000).create()) {
            String host6 = network.hostIpv6().orElseThrow(() -> new AssertionError("no IPv6 on the bridge"));
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try (RxePeer guest = RxePeer.builder().name("rxe-soak").network(network)
                     .command(guestScript(network.hostIpv4(), host6, mtu, iters, runs))
                     .guestTimeout(Duration.ofHours(12)).start()) {
                guest.awaitReady(Duration.ofMinutes(3));
                for (int i = 1; i <= runs; i++) {
                    Path pcap = dir.resolve("run-" + i + ".pcap");
                    JroceCommand.Result r = JroceCommand.start(pool, "rc_pingpong", "--bind", host6, "-g", "0",
                        "-m", mtu, "-s", "1", "-n", iters, "--timeout", JROCE_SILENCE_S, "--pcap", pcap.toString())
                        .await(Duration.ofMinutes(2));
                    if (r.status() != 0) {
                        Path report = dir.resolve("stall-" + i + ".txt");
                        Files.writeString(report, r.transcript() + "\n--- the guest:\n"
                            + String.join("\n", guest.consoleLines()) + "\n");
                        assertEquals(0, r.status(), "run " + i + " of " + runs + " stalled: " + report
                            + " and " + pcap + "\n" + r.transcript());
                    }
                    Files.delete(pcap);
                }
                GuestResult g = guest.awaitExit(Duration.ofMinutes(2));
                assertEquals(0, g.exitStatus(), g.console());
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /**
     * The guest's loop: each client run in the background, watched; one that outlives
     * {@link #GUEST_STALL_S} has stalled, and the guest reports and exits 1.
     */
    private static String guestScript(String host4, String host6, String mtu, String iters, int runs) {
        String report = "cd /sys/class/infiniband/rxe0/ports/1/hw_counters; grep . *; cd /;"
            + " rdma res show qp | grep -v ' 1 '; ip -6 neigh; ip -s link show eth0;"
            + " ip -6 route get " + host6 + "; ping -c 1 -W 1 " + host6;
        return "r(){ " + report + ";};"
            + "c(){ retry-refused ibv_rc_pingpong -g 2 -m " + mtu + " -s 1 -n " + iters + " " + host4 + " & p=$!; t=0;"
            + " while kill -0 $p 2>/dev/null; do sleep 1; t=$((t+1));"
            + " if [ $t -ge " + GUEST_STALL_S + " ]; then echo SOAK-STALL; r; sleep 2; echo SOAK-STALL-LATER; r;"
            + " kill $p; return 1; fi; done; wait $p;};"
            + "i=0; while [ $i -lt " + runs + " ]; do c || exit 1; i=$((i+1)); done";
    }
}
