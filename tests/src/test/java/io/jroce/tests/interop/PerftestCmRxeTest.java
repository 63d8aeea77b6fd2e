package io.jroce.tests.interop;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jroce.tests.interop.PerftestRxeTest.Step;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
    private static final Logger LOG = LoggerFactory.getLogger(PerftestCmRxeTest.class);
    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Duration STEP = Duration.ofMinutes(3);
    private static final int GUEST_TOOL_TIMEOUT_S = 100;
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
        Lab lab = Lab.start("rxe-perftest-cm-servers", "s", null);
        return lab.steps((step, k) -> DynamicTest.dynamicTest("ib_" + step + " -R server, jroce client",
            () -> serverInGuest(lab, step, k)));
    }

    /** The guest as client of every step, connecting to a jroce server on the host (a random port). */
    @TestFactory
    @Order(2)
    Stream<DynamicTest> perftestClientJroceServer() {
        int port = ThreadLocalRandom.current().nextInt(20000, 30000);
        Lab lab = Lab.start("rxe-perftest-cm-clients", "c", port);
        return lab.steps((step, k) -> DynamicTest.dynamicTest("ib_" + step + " -R client, jroce server",
            () -> clientInGuest(lab, step, k, port)));
    }

    private void serverInGuest(Lab lab, Step step, int k) throws Exception {
        lab.guest.awaitOutput(lab.begin(k), BOOT);
        List<String> args = jroceArgs(lab.network, step);
        args.add(lab.guest.ipv4());
        RoceCapture capture = null;
        if (step.id().equals(CAPTURED_STEP)) {
            capture = RoceCapture.startInNetns(lab.guest.containerPid(), "tap0",
                Path.of("/tmp/perftest-cm-" + step.id() + ".pcap"));
        }
        JroceCommand.Result jroce;
        try {
            jroce = runWhileRejected(lab.pool, args);
        } finally {
            if (capture != null) {
                capture.stop();
            }
        }
        GuestRun guest = lab.awaitEnd(k);
        String context = step + " -R\n--- jroce (client):\n" + jroce.transcript() + "\n--- rxe (server), status "
            + guest.status + ":\n" + String.join("\n", guest.lines);
        check(step, PerftestOutput.parse(jroce.lines()), jroce.status(), PerftestOutput.parse(guest.lines),
            guest.status, lab.hostGid(), lab.guestGid(), context);
        if (capture != null) {
            capture.check();
        }
    }

    private void clientInGuest(Lab lab, Step step, int k, int port) throws Exception {
        List<String> args = jroceArgs(lab.network, step);
        args.addAll(List.of("-p", Integer.toString(port)));
        JroceCommand server = JroceCommand.start(lab.pool, args.toArray(String[]::new));
        GuestRun guest;
        JroceCommand.Result jroce;
        try {
            guest = lab.awaitEnd(k);
            jroce = server.await(guest.status == 0 ? STEP : Duration.ofSeconds(10));
        } catch (Exception | AssertionError e) {
            server.cancel();
            throw e;
        }
        String context = step + " -R\n--- jroce (server):\n" + jroce.transcript() + "\n--- rxe (client), status "
            + guest.status + ":\n" + String.join("\n", guest.lines);
        check(step, PerftestOutput.parse(guest.lines), guest.status, PerftestOutput.parse(jroce.lines()),
            jroce.status(), lab.guestGid(), lab.hostGid(), context);
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

    /**
     * Runs a jroce client again while the guest's server does not listen yet (its kernel answers REJ 8,
     * which perftest's client reports as "Unexpected CM event bl blka 8"): up to 30 times, 1 s apart.
     */
    private static JroceCommand.Result runWhileRejected(ExecutorService pool, List<String> args) throws Exception {
        JroceCommand.Result r = null;
        for (int attempt = 1; attempt <= 30; attempt++) {
            JroceCommand c = JroceCommand.start(pool, args.toArray(String[]::new));
            try {
                r = c.await(STEP);
            } catch (Exception e) {
                c.cancel();
                throw e;
            }
            if (r.status() == 0 || !r.transcript().contains("Unexpected CM event bl blka 8")) {
                break;
            }
            Thread.sleep(1000);
        }
        return r;
    }

    record GuestRun(int status, List<String> lines) {
    }

    /** A network of its own, one guest running every step in one role, a pool for jroce's commands. */
    private static final class Lab implements AutoCloseable {
        final RxeNetwork network;
        final RxePeer guest;
        final ExecutorService pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "jroce-perftest-cm");
            t.setDaemon(true);
            return t;
        });
        final String prefix;

        private Lab(RxeNetwork network, RxePeer guest, String prefix) {
            this.network = network;
            this.guest = guest;
            this.prefix = prefix;
        }

        /**
         * Starts the guest; its script's {@code f <k> <tool> <options>} runs one step. A client (given
         * the jroce server's port) runs again while rejected: perftest's client with -R fails at once
         * when nobody listens ("Unexpected CM event bl blka 8"), which retry-refused does not know.
         */
        static Lab start(String name, String prefix, Integer clientPort) {
            RxeNetwork network = RxeNetwork.builder().create();
            try {
                String tool = "timeout " + GUEST_TOOL_TIMEOUT_S + " ib_$t -d rxe0 -x 1 -F -R";
                String run = clientPort == null ? tool + " \"$@\"; r=$?"
                    : "i=0; while :; do " + tool + " -p " + clientPort + " \"$@\" " + network.hostIpv4()
                        + " >/tmp/o 2>&1; r=$?; if [ $r -ne 0 ] && grep -q \"bl blka 8\" /tmp/o && [ $i -lt 60 ];"
                        + " then i=$((i+1)); sleep 1; else break; fi; done; cat /tmp/o";
                StringBuilder script = new StringBuilder("f(){ k=$1;t=$2;shift 2;echo \"### " + prefix + "$k begin\";"
                    + run + ";echo \"### " + prefix + "$k end $r\";};L(){ ");
                for (int k = 0; k < STEPS.size(); k++) {
                    script.append("$1 ").append(k + 1).append(' ').append(STEPS.get(k).tool()).append(' ')
                        .append(STEPS.get(k).options()).append(';');
                }
                script.append("};L f");
                RxePeer guest = RxePeer.builder().name(name).network(network).command(script.toString())
                    .guestTimeout(Duration.ofMinutes(12)).start();
                return new Lab(network, guest, prefix);
            } catch (RuntimeException e) {
                network.close();
                throw e;
            }
        }

        <T> Stream<T> steps(java.util.function.BiFunction<Step, Integer, T> test) {
            List<T> tests = new ArrayList<>();
            for (int k = 0; k < STEPS.size(); k++) {
                tests.add(test.apply(STEPS.get(k), k + 1));
            }
            return tests.stream().onClose(this::close);
        }

        String hostGid() {
            return PerftestOutput.ipv4Gid(network.hostIpv4());
        }

        String guestGid() {
            return PerftestOutput.ipv4Gid(guest.ipv4());
        }

        String begin(int k) {
            return "### " + prefix + k + " begin";
        }

        GuestRun awaitEnd(int k) {
            String endPrefix = "### " + prefix + k + " end ";
            String end = guest.awaitOutput(endPrefix, STEP);
            List<String> console = guest.consoleLines();
            int from = console.indexOf(begin(k));
            int to = console.indexOf(end);
            List<String> lines = from >= 0 && to > from ? console.subList(from + 1, to) : List.of();
            return new GuestRun(Integer.parseInt(end.substring(end.indexOf(endPrefix) + endPrefix.length()).trim()),
                List.copyOf(lines));
        }

        @Override
        public void close() {
            pool.shutdownNow();
            try {
                guest.close();
            } finally {
                network.close();
            }
            LOG.info("{}: guest and network closed", guest.name());
        }
    }
}
