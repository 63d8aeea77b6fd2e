package io.jroce.tests.interop;

import io.jroce.testcontainers.RxeNetwork;
import io.jroce.testcontainers.RequiresRxePeer;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jroce.tests.interop.PerftestRxeTest.Step;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * jroce's perftest twins with {@code -R} against real perftest 4.5-0.17 on Linux rxe with {@code -R},
 * in both roles: the out-of-band exchange over the control QP the RDMA CM connected (the 16-byte
 * versions, the sizes, the MTU, the 56-byte key records, the reports as SENDs) and every test QP
 * connected through a CM ID of its own (UD: in the UDP port space, the peer's QP found with SIDR,
 * send_lat's client QP told in a SEND with immediate). One guest per role runs every {@link #STEPS step} in turn
 * (as {@link PerftestRxeTest} does); each step checks what {@link PerftestRxeTest#check} checks of a
 * TCP run (both exit 0, each side's local address is the other's remote one, the GIDs, the rows'
 * {@code #bytes} and {@code #iterations}, the server's BW row the client's) and that both sides say
 * {@code rdma_cm QPs : ON} and {@code Data ex. method : rdma_cm}, and, for the step with {@code -T}, the
 * TOS both print after it. The first step (write_bw of 8 bytes) with
 * the guest as server is captured on the guest's tap ({@code /tmp/perftest-cm-write_bw-s8.pcap}) and checked by
 * {@link RoceCapture}; the copy kept in {@code src/test/resources/perftest/rxe-cm-write_bw.pcap} is what
 * {@link PerftestCmCaptureTest} reads real perftest's control messages from.
 */
@RequiresRxePeer
@Timeout(value = 15, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PerftestCmRxeTest {
    /** The guest's perftest with -R, its own bound on each run. */
    private static final String TOOL = "timeout " + PerftestLab.GUEST_TOOL_TIMEOUT_S + " ib_$t -d rxe0 -x 1 -F -R";
    /** Small enough to keep: 20 writes of 8 bytes besides the CM's and the control QP's packets. */
    private static final String CAPTURED_STEP = "write_bw-s8";

    static final List<Step> STEPS = List.of(
        new Step("write_bw-s8", "write_bw", "-s 8 -n 20"),
        new Step("write_bw", "write_bw", "-n 100"),
        new Step("read_bw", "read_bw", "-n 100"),
        new Step("send_lat", "send_lat", "-n 200"),
        new Step("send_bw", "send_bw", "-n 100"),
        new Step("atomic_bw", "atomic_bw", "-n 100"),
        new Step("write_lat", "write_lat", "-n 200"),
        new Step("read_bw-q2", "read_bw", "-s 3000 -n 100 -q 2"),
        new Step("send_bw-ud", "send_bw", "-c UD -n 100"),
        new Step("send_lat-ud", "send_lat", "-c UD -n 200"),
        new Step("write_bw-tos", "write_bw", "-n 100 -T 184"));

    /** The guest as server of every step; a jroce client connects to it (the default port 18515). */
    @TestFactory
    @Order(1)
    Stream<DynamicTest> perftestServerJroceClient() {
        PerftestLab lab = PerftestLab.start("rxe-perftest-cm-servers", "s", STEPS, network -> TOOL + " \"$@\"; r=$?");
        return lab.steps((step, k) -> DynamicTest.dynamicTest("ib_" + step + " -R server, jroce client",
            () -> serverInGuest(lab, step, k)));
    }

    /** The guest as client of every step, connecting to a jroce server on the host (a random port). */
    @TestFactory
    @Order(2)
    Stream<DynamicTest> perftestClientJroceServer() {
        int port = ThreadLocalRandom.current().nextInt(20000, 30000);
        PerftestLab lab = PerftestLab.start("rxe-perftest-cm-clients", "c", STEPS, network -> clientRun(network, port));
        return lab.steps((step, k) -> DynamicTest.dynamicTest("ib_" + step + " -R client, jroce server",
            () -> clientInGuest(lab, step, k, port)));
    }

    /**
     * The guest's client of one step, run again while rejected: perftest's client with -R fails at once
     * when nobody listens ("Unexpected CM event bl blka 8"), which retry-refused does not know.
     */
    private static String clientRun(RxeNetwork network, int port) {
        return "i=0; while :; do " + TOOL + " -p " + port + " \"$@\" " + network.hostIpv4()
            + " >/tmp/o 2>&1; r=$?; if [ $r -ne 0 ] && grep -q \"bl blka 8\" /tmp/o && [ $i -lt 60 ];"
            + " then i=$((i+1)); sleep 1; else break; fi; done; cat /tmp/o";
    }

    private void serverInGuest(PerftestLab lab, Step step, int k) throws Exception {
        List<String> args = jroceArgs(lab.network, step);
        args.add(lab.guest.ipv4());
        Path pcap = step.id().equals(CAPTURED_STEP) ? Path.of("/tmp/perftest-cm-" + step.id() + ".pcap") : null;
        // The guest's server not listening yet: its kernel answers REJ 8, which perftest's client reports so.
        PerftestLab.Outcome o = lab.jroceClient(k, args, "Unexpected CM event bl blka 8", pcap);
        check(step, o.jroceOutput(), o.jroce().status(), o.guestOutput(),
            o.guest().status(), lab.hostGid(), lab.guestGid(), o.context(step + " -R", "client", "server"));
        if (o.capture() != null) {
            o.capture().check();
        }
    }

    private void clientInGuest(PerftestLab lab, Step step, int k, int port) throws Exception {
        List<String> args = jroceArgs(lab.network, step);
        args.addAll(List.of("-p", Integer.toString(port)));
        PerftestLab.Outcome o = lab.jroceServer(k, args, Duration.ofSeconds(10));
        check(step, o.guestOutput(), o.guest().status(), o.jroceOutput(),
            o.jroce().status(), lab.guestGid(), lab.hostGid(), o.context(step + " -R", "server", "client"));
    }

    private static void check(Step step, PerftestOutput client, int clientStatus, PerftestOutput server,
                              int serverStatus, String clientGid, String serverGid, String context) {
        PerftestRxeTest.check(step, client, clientStatus, server, serverStatus, clientGid, serverGid, null, context);
        assertAll(context,
            () -> assertEquals("ON", client.parameters().get("rdma_cm QPs"), "client's rdma_cm QPs"),
            () -> assertEquals("ON", server.parameters().get("rdma_cm QPs"), "server's rdma_cm QPs"),
            () -> assertEquals("rdma_cm", client.parameters().get("Data ex. method"), "client's Data ex. method"),
            () -> assertEquals("rdma_cm", server.parameters().get("Data ex. method"), "server's Data ex. method"),
            () -> assertEquals(step.has("-T") ? step.option("-T", null) : null, client.parameters().get("TOS"),
                "client's TOS"),
            () -> assertEquals(step.has("-T") ? step.option("-T", null) : null, server.parameters().get("TOS"),
                "server's TOS"));
    }

    /** jroce's side: the device on the host's bridge address, its GID 0 (the guest's IPv4 GID is 1). */
    private static List<String> jroceArgs(RxeNetwork network, Step step) {
        List<String> args = new ArrayList<>(List.of(step.tool(), "-R", "--bind", network.hostIpv4(), "-x", "0", "-F"));
        args.addAll(step.optionList());
        return args;
    }
}
