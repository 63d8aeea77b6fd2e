package io.jroce.tests.interop;

import io.jroce.testcontainers.GuestResult;
import io.jroce.testcontainers.RxePeer;
import io.jroce.testcontainers.RequiresRxePeer;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jroce.testsupport.DevinfoComparison;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code jroce devinfo} and {@code jroce devinfo -v} against ibv_devinfo and ibv_devinfo -v run live
 * on a real rxe device, line by line, with the differences {@link DevinfoComparison#JROCE_VALUES}
 * allows (the tools module's DevinfoMatchesIbvDevinfoTest compares with a committed capture).
 */
@RequiresRxePeer
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class DevinfoRxeTest {
    private static final String SPLIT = "=====ibv_devinfo -v";

    @Test
    void devinfoPrintsWhatIbvDevinfoPrintsOnRxe() throws Exception {
        GuestResult rxe;
        try (RxePeer peer = RxePeer.builder().name("devinfo").command("ibv_devinfo; echo " + SPLIT + "; ibv_devinfo -v")
                 .start()) {
            rxe = peer.awaitExit(Duration.ofMinutes(4));
        }
        assertEquals(0, rxe.exitStatus(), rxe.console());
        List<String> lines = rxe.output().stream().map(l -> l.replace("\r", "")).toList();
        int split = lines.indexOf(SPLIT);
        String plain = String.join("\n", lines.subList(0, split)) + "\n";
        String verbose = String.join("\n", lines.subList(split + 1, lines.size())) + "\n";
        int port = freeUdpPort();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            assertMatches(plain, JroceCommand.start(pool, "devinfo", "--bind", "127.0.0.1", "--bind", "::1",
                "--udp-port", Integer.toString(port)).await(Duration.ofMinutes(1)), rxe);
            assertMatches(verbose, JroceCommand.start(pool, "devinfo", "-v", "--bind", "127.0.0.1", "--bind", "::1",
                "--udp-port", Integer.toString(port)).await(Duration.ofMinutes(1)), rxe);
        } finally {
            pool.shutdownNow();
        }
    }

    private static void assertMatches(String rxeText, JroceCommand.Result jroce, GuestResult rxe) {
        assertEquals(0, jroce.status(), jroce.transcript());
        String jroceText = String.join("\n", jroce.lines()) + "\n";
        assertEquals(List.of(), DevinfoComparison.differences(rxeText, jroceText, DevinfoComparison.JROCE_VALUES),
            "rxe:\n" + rxeText + "\n" + jroce.transcript());
    }

    private static int freeUdpPort() throws Exception {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            return s.getLocalPort();
        }
    }
}
