package io.jroce.tests.interop;

import io.jroce.testcontainers.RxeNetwork;
import io.jroce.testcontainers.RequiresRxePeer;
import io.jroce.tools.perftest.report.BwRow;
import io.jroce.tools.perftest.report.LatencyRow;
import io.jroce.tools.perftest.report.PerftestReport;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * jroce's perftest twins ({@code jroce write_bw}, {@code write_lat}, {@code read_bw}, {@code
 * read_lat}, {@code send_bw}, {@code send_lat}, {@code atomic_bw}, {@code atomic_lat}) against
 * real perftest 4.5-0.17 ({@code ib_write_bw} ...) on Linux rxe, in both roles, over the IPv4 GID
 * (1 in the guest; jroce bound to the host's address on the bridge, its GID 0), path MTU 1024.
 *
 * <p>Each tool runs at its default size and at one or two others (1 byte, 3000 bytes: three
 * packets), some with one more option perftest and the twin share ({@code --report_gbits},
 * {@code -c UC}, {@code -c UD}, {@code -q 2}, {@code -t}, {@code -I}): the {@link #STEPS}. Per role,
 * one guest runs all steps one after the other (first the guest as server, jroce connecting to it;
 * then, with a guest of its own, the guest as client of a jroce server on a random TCP port, {@code
 * -p}); each step is a dynamic test. The guest brackets each run with {@code ### s<k> begin} /
 * {@code ### s<k> end <status>} lines, so the test knows which output belongs to which step, and
 * the two sides move in lock step: a step starts only after both sides of the previous one ended.
 * About 90 s for all 34 runs on the 2-core machine.
 *
 * <p>What each step asserts ({@link PerftestOutput} parses both sides):
 * <ul>
 * <li>both exit 0; both print the test's title and, per QP, one local and one remote address;
 * what one side prints as its local address (LID, QPN, PSN, out_reads, rkey, vaddr, GID) the
 * other prints as the remote one: the TCP exchange carried both ways what each side used; the
 * GIDs are the IPv4-mapped addresses of the host and the guest;</li>
 * <li>BW tests: one row on each side, the same {@code #bytes} (the size asked for; UD: cut to the
 * MTU) and {@code #iterations} (iterations x QPs); the message rate above zero and the BW average
 * equal to {@code #bytes x rate} within printing precision (a BW of 1-byte messages prints 0.00
 * MB/sec); write_bw, read_bw and atomic_bw print the client's row on the server: all its numbers
 * must be the client's (the report exchange); {@code --report_gbits} gives {@code Gb/sec} on
 * both sides;</li>
 * <li>latency tests: write_lat and send_lat print a row on both sides, read_lat and atomic_lat
 * on the client only (the server must print no table, as perftest's does not); the same
 * {@code #bytes} and {@code #iterations} and ordered times (t_min &lt;= t_typical, t_avg,
 * percentiles &lt;= t_max);</li>
 * <li>jroce's parameter block has the keys, in order, that real perftest prints in the same role
 * for the same options (the samples in {@code src/test/resources/perftest/}), with the same values
 * except those of the device (Device, GID index, inline size, outstanding reads, PCIe relaxed
 * ordering, ibv_wr* API).</li>
 * </ul>
 * Nothing depends on timing: the numbers compared are counts, or numbers one side received from
 * the other; the waits are guards. Under TCG, real perftest now and then fails to calibrate its
 * clock ("Correlation coefficient r^2 ... &lt; 0.9"; with {@code -F} it goes on and prints zero rates
 * or infinite times): the numbers that side measured are then not checked, its counts still are. The default write_bw step with jroce as client is captured on the
 * guest's {@code tap0} ({@code /tmp/perftest-write_bw.pcap}; on the host's bridge jroce's UDP GSO
 * datagrams are still whole) and checked by {@link RoceCapture}: every frame RoCEv2 to tshark,
 * nothing malformed, every ICRC valid.
 */
@RequiresRxePeer
@Timeout(value = 15, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PerftestRxeTest {
    private static final Logger LOG = LoggerFactory.getLogger(PerftestRxeTest.class);
    private static final int RXE_MTU = 1024; // a 1500-byte network: rxe's active MTU
    private static final String CAPTURED_STEP = "write_bw";

    /** One run of a tool: a name (also the samples' file name), the tool and perftest options. */
    record Step(String id, String tool, String options) {
        List<String> optionList() {
            return Arrays.asList(options.trim().split("\\s+"));
        }

        boolean bandwidth() {
            return tool.endsWith("_bw");
        }

        String verb() {
            return tool.substring(0, tool.indexOf('_'));
        }

        String option(String name, String otherwise) {
            List<String> o = optionList();
            int i = o.indexOf(name);
            return i >= 0 && i + 1 < o.size() ? o.get(i + 1) : otherwise;
        }

        boolean has(String flag) {
            return optionList().contains(flag);
        }

        /** The message size the report must show: -s or the tool's default; atomics 8; UD SENDs cut to the MTU. */
        long size() {
            long size = verb().equals("atomic") ? 8 : Long.parseLong(option("-s", bandwidth() ? "65536" : "2"));
            return option("-c", "RC").equals("UD") ? Math.min(size, RXE_MTU) : size;
        }

        /** #iterations in the report: -n, times the QPs for BW tests. */
        long iterations() {
            long n = Long.parseLong(option("-n", "1000"));
            return bandwidth() ? n * Integer.parseInt(option("-q", "1")) : n;
        }

        int qps() {
            return Integer.parseInt(option("-q", "1"));
        }

        String title() {
            String verb = switch (verb()) {
                case "write" -> "RDMA_Write";
                case "read" -> "RDMA_Read";
                case "send" -> "Send";
                case "atomic" -> "Atomic FETCH_AND_ADD";
                default -> throw new IllegalStateException(tool);
            };
            return verb + (bandwidth() ? " BW Test" : " Latency Test");
        }

        /** Whether the server prints a report: every BW test, and the latency tests where both sides post. */
        boolean serverReports() {
            return bandwidth() || tool.equals("write_lat") || tool.equals("send_lat");
        }

        /** Whether the server prints the client's BW row (received in the report exchange) rather than its own. */
        boolean serverPrintsClientRow() {
            return bandwidth() && !verb().equals("send");
        }

        @Override
        public String toString() {
            return tool + " " + options;
        }
    }

    /**
     * Each tool at its default size (first), then 1 byte and/or 3000 bytes (3 packets at MTU 1024),
     * with a few more options. Iterations keep each run to seconds under TCG (about 8 MB/s, 1 to 5
     * ms per round trip). The samples in src/test/resources/perftest/ are these steps between two
     * rxe guests.
     */
    static final List<Step> STEPS = List.of(
        new Step("write_bw", "write_bw", "-n 100"),
        new Step("write_bw-s1-report_gbits", "write_bw", "-s 1 -n 100 --report_gbits"),
        new Step("write_bw-s3000-uc", "write_bw", "-s 3000 -n 100 -c UC"),
        new Step("write_lat", "write_lat", "-n 200"),
        new Step("write_lat-s3000", "write_lat", "-s 3000 -n 100"),
        new Step("read_bw", "read_bw", "-n 100"),
        new Step("read_bw-s1-t16", "read_bw", "-s 1 -n 100 -t 16"),
        new Step("read_bw-s3000-q2", "read_bw", "-s 3000 -n 100 -q 2"),
        new Step("read_lat", "read_lat", "-n 200"),
        new Step("read_lat-s3000", "read_lat", "-s 3000 -n 100"),
        new Step("send_bw", "send_bw", "-n 100"),
        new Step("send_bw-s1-q2-inline", "send_bw", "-s 1 -n 100 -q 2 -I 32"),
        new Step("send_bw-ud", "send_bw", "-n 100 -c UD"),
        new Step("send_lat", "send_lat", "-n 200"),
        new Step("send_lat-s3000", "send_lat", "-s 3000 -n 100"),
        new Step("atomic_bw", "atomic_bw", "-n 100"),
        new Step("atomic_lat", "atomic_lat", "-n 200"));

    /** Parameters whose values depend on the device (or on jroce having no PCIe): compared by key only. */
    private static final Set<String> DEVICE_PARAMETERS =
        Set.of("Device", "GID index", "Max inline data", "Outstand reads", "PCIe relax order", "ibv_wr* API");

    /** The guest as server of every step; a jroce client connects to it (default TCP port 18515). */
    @TestFactory
    @Order(1)
    Stream<DynamicTest> perftestServerJroceClient() {
        PerftestLab lab = PerftestLab.start("rxe-perftest-servers", "s", STEPS, network -> "timeout "
            + PerftestLab.GUEST_TOOL_TIMEOUT_S + " ib_$t -d rxe0 -x 1 -F \"$@\"; r=$?");
        return lab.steps((step, k) -> DynamicTest.dynamicTest("ib_" + step + " server, jroce client",
            () -> serverInGuest(lab, step, k)));
    }

    /** The guest as client of every step, connecting to a jroce server on the host (a random TCP port). */
    @TestFactory
    @Order(2)
    Stream<DynamicTest> perftestClientJroceServer() {
        int port = ThreadLocalRandom.current().nextInt(20000, 30000); // another run's jroce may hold 18515
        PerftestLab lab = PerftestLab.start("rxe-perftest-clients", "c", STEPS, network ->
            "RETRY_TRIES=60 retry-refused timeout " + PerftestLab.GUEST_TOOL_TIMEOUT_S + " ib_$t -d rxe0 -x 1 -F -p "
            + port + " \"$@\" " + network.hostIpv4() + "; r=$?");
        return lab.steps((step, k) -> DynamicTest.dynamicTest("ib_" + step + " client, jroce server",
            () -> clientInGuest(lab, step, k, port)));
    }

    private void serverInGuest(PerftestLab lab, Step step, int k) throws Exception {
        List<String> args = jroceArgs(lab.network, step);
        args.add(lab.guest.ipv4());
        Path pcap = step.id().equals(CAPTURED_STEP) ? Path.of("/tmp/perftest-" + step.id() + ".pcap") : null;
        // "Couldn't connect to": the guest's server prints its begin line a moment before it listens.
        PerftestLab.Outcome o = lab.jroceClient(k, args, "Couldn't connect to", pcap);
        check(step, o.jroceOutput(), o.jroce().status(), o.guestOutput(),
            o.guest().status(), lab.hostGid(), lab.guestGid(), "client",
            o.context(step.toString(), "client", "server"));
        if (o.capture() != null) {
            o.capture().check(); // every frame RoCEv2 to tshark, nothing malformed, every ICRC valid
        }
    }

    private void clientInGuest(PerftestLab lab, Step step, int k, int port) throws Exception {
        List<String> args = jroceArgs(lab.network, step);
        args.addAll(List.of("-p", Integer.toString(port)));
        PerftestLab.Outcome o = lab.jroceServer(k, args, PerftestLab.STEP);
        check(step, o.guestOutput(), o.guest().status(), o.jroceOutput(),
            o.jroce().status(), lab.guestGid(), lab.hostGid(), "server",
            o.context(step.toString(), "server", "client"));
    }

    /** jroce's side: the device on the host's bridge address, its GID 0 (the guest uses its IPv4 GID, 1). */
    private static List<String> jroceArgs(RxeNetwork network, Step step) {
        List<String> args = new ArrayList<>(List.of(step.tool(), "--bind", network.hostIpv4(), "-x", "0", "-F"));
        args.addAll(step.optionList());
        return args;
    }

    /**
     * The checks of one step (see the class comment), on what the client and the server printed.
     * {@code jroceRole} ("client", "server") names jroce's side, whose parameter block is compared
     * with perftest's sample; null compares none (two real perftests: {@link PerftestOutputTest}).
     */
    static void check(Step step, PerftestOutput client, int clientStatus, PerftestOutput server, int serverStatus,
                      String clientGid, String serverGid, String jroceRole, String context) {
        assertEquals(0, clientStatus, () -> "client's exit status\n" + context);
        assertEquals(0, serverStatus, () -> "server's exit status\n" + context);
        assertAll(context,
            () -> assertEquals(step.title(), client.title(), "client's title"),
            () -> assertEquals(step.title(), server.title(), "server's title"),
            () -> assertTrue(server.waitingBox(), "server's \"Waiting for client to connect...\" box"),
            () -> assertFalse(client.waitingBox(), "a \"Waiting for client\" box on the client"),
            // the exchange: what one side used, the other was told
            () -> assertEquals(step.qps(), client.localAddresses().size(), "client's local address lines"),
            () -> assertEquals(step.qps(), server.localAddresses().size(), "server's local address lines"),
            () -> assertEquals(client.localAddresses(), server.remoteAddresses(), "client's local = server's remote"),
            () -> assertEquals(server.localAddresses(), client.remoteAddresses(), "server's local = client's remote"),
            () -> assertTrue(client.localAddresses().stream().allMatch(a -> clientGid.equals(a.gid())),
                "client's GID " + clientGid),
            () -> assertTrue(server.localAddresses().stream().allMatch(a -> serverGid.equals(a.gid())),
                "server's GID " + serverGid),
            () -> assertTrue(client.unparsedRows().isEmpty(), "client's rows that do not parse: " + client.unparsedRows()),
            () -> assertTrue(server.unparsedRows().isEmpty(), "server's rows that do not parse: " + server.unparsedRows()),
            () -> {
                if (step.bandwidth()) {
                    checkBw(step, client, server);
                } else {
                    checkLat(step, client, server);
                }
            },
            () -> {
                if (jroceRole != null) {
                    checkParameters(step, jroceRole.equals("client") ? client : server, jroceRole);
                }
            });
    }

    private static void checkBw(Step step, PerftestOutput client, PerftestOutput server) {
        String unit = step.has("--report_gbits") ? "Gb/sec" : "MB/sec";
        assertEquals(PerftestReport.Table.BW, client.table(), "client's table");
        assertEquals(PerftestReport.Table.BW, server.table(), "server's table");
        assertEquals(unit, client.bwUnit(), "client's BW unit");
        assertEquals(unit, server.bwUnit(), "server's BW unit");
        assertEquals(1, client.bwRows().size(), "client's BW rows");
        assertEquals(1, server.bwRows().size(), "server's BW rows");
        BwRow c = client.bwRows().get(0);
        BwRow s = server.bwRows().get(0);
        assertEquals(List.of(step.size(), step.iterations()), List.of(c.bytes(), c.iterations()),
            "client's #bytes, #iterations");
        assertEquals(List.of(step.size(), step.iterations()), List.of(s.bytes(), s.iterations()),
            "server's #bytes, #iterations");
        // the times behind a row were measured by the client, or (send_bw) by the server for its own row
        boolean clientClock = !client.clockUncalibrated();
        boolean serverRowClock = step.serverPrintsClientRow() ? clientClock : !server.clockUncalibrated();
        List<BwRow> timed = new ArrayList<>();
        if (clientClock) {
            timed.add(c);
        }
        if (serverRowClock) {
            timed.add(s);
        }
        for (BwRow r : timed) {
            assertTrue(r.msgRateMpps() > 0, () -> "message rate 0: " + r.text());
            assertTrue(r.bwPeak() >= 0 && r.bwAverage() >= 0, () -> "negative BW: " + r.text());
            assertTrue(PerftestOutput.bwConsistentWithRate(r, unit), () -> "BW average is not #bytes x MsgRate: " + r.text());
        }
        if (step.serverPrintsClientRow()) {
            assertEquals(List.of(c.bwPeak(), c.bwAverage(), c.msgRateMpps()),
                List.of(s.bwPeak(), s.bwAverage(), s.msgRateMpps()), "server's row is the client's (report exchange)");
        }
    }

    private static void checkLat(Step step, PerftestOutput client, PerftestOutput server) {
        assertEquals(PerftestReport.Table.LAT, client.table(), "client's table");
        assertEquals(1, client.latRows().size(), "client's latency rows");
        checkLatRow(step, client.latRows().get(0), !client.clockUncalibrated());
        if (step.serverReports()) {
            assertEquals(PerftestReport.Table.LAT, server.table(), "server's table");
            assertEquals(1, server.latRows().size(), "server's latency rows");
            checkLatRow(step, server.latRows().get(0), !server.clockUncalibrated());
        } else {
            assertEquals(PerftestReport.Table.NONE, server.table(), "a table on the server (perftest prints none)");
        }
    }

    /** Counts always; times only when the side had a clock (see {@link PerftestOutput#clockUncalibrated()}). */
    private static void checkLatRow(Step step, LatencyRow r, boolean clock) {
        assertEquals(List.of(step.size(), step.iterations()), List.of(r.bytes(), r.iterations()),
            "#bytes, #iterations: " + r.text());
        if (!clock) {
            LOG.warn("{}: perftest could not calibrate its clock, its times are not checked: {}", step, r.text());
            return;
        }
        assertTrue(r.tMin() > 0, () -> "t_min: " + r.text());
        assertTrue(r.tMin() <= r.tTypical() && r.tTypical() <= r.tMax(), () -> "t_typical outside t_min..t_max: " + r.text());
        assertTrue(r.tMin() <= r.tAvg() && r.tAvg() <= r.tMax(), () -> "t_avg outside t_min..t_max: " + r.text());
        assertTrue(r.tMin() <= r.p99() && r.p99() <= r.p999() && r.p999() <= r.tMax(),
            () -> "percentiles out of order: " + r.text());
        assertTrue(Double.isNaN(r.tStdev()) || r.tStdev() >= 0, () -> "t_stdev: " + r.text());
    }

    /** jroce's parameter block against real perftest's in the same role for the same options (the sample). */
    private static void checkParameters(Step step, PerftestOutput jroce, String role) {
        PerftestOutput perftest = sample(step.id() + "-" + role + ".txt");
        Map<String, String> expected = perftest.parameters();
        Map<String, String> actual = jroce.parameters();
        assertEquals(List.copyOf(expected.keySet()), List.copyOf(actual.keySet()),
            "jroce's parameter block has other keys than perftest's (" + role + ")");
        Map<String, String> expectedValues = expected.entrySet().stream()
            .filter(e -> !DEVICE_PARAMETERS.contains(e.getKey()))
            .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        Map<String, String> actualValues = actual.entrySet().stream()
            .filter(e -> !DEVICE_PARAMETERS.contains(e.getKey()))
            .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        assertEquals(expectedValues, actualValues, "jroce's parameter values differ from perftest's (" + role + ")");
    }

    /** A sample of real perftest on rxe from src/test/resources/perftest/. */
    static PerftestOutput sample(String name) {
        try (InputStream in = PerftestRxeTest.class.getResourceAsStream("/perftest/" + name)) {
            assertNotNull(in, "no sample /perftest/" + name);
            return PerftestOutput.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
