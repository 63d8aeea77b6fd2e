package io.jroce.tools.perftest;

import static io.jroce.tools.cmcommon.TwinAddresses.CLIENT;
import static io.jroce.tools.cmcommon.TwinAddresses.SERVER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.testsupport.StartupGuard;
import io.jroce.tools.Main;
import io.jroce.tools.cmcommon.TwinAddresses;
import io.jroce.tools.perftest.report.BwRow;
import io.jroce.tools.perftest.report.LatencyRow;
import io.jroce.tools.perftest.report.PerftestReport;
import io.jroce.tools.perftest.report.PerftestReportParser;
import io.jroce.verbs.exchange.PerftestDest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The perftest twins with -R against themselves: server on 127.0.0.1, client on 127.0.0.2, both
 * devices on one free UDP port (as RdmaCmUdpTest explains), the RDMA CM port a free one (-p). Both
 * must end with status 0 and print the result row of the size and iterations asked for; what one
 * side prints as its local QP (QPN, PSN, rkey, address, GID) the other must print as the remote one,
 * which only the binary key records over the control QP can have carried; the parameter block says
 * rdma_cm. Nothing depends on how fast the run is.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PerftestRdmaCmTest {
    /** The server device's second address. */
    private static final String SECOND = TwinAddresses.PROBE;
    /** Guards against hangs only. */
    private static final long GUARD_S = 120;
    private static final Pattern ADDRESS = Pattern.compile(" (local|remote) address: (.*)\\n GID: (.*)");

    record Side(int status, String out, String err) {
        String transcript(String name) {
            return "--- " + name + ", status " + status + ":\n" + out + err;
        }
    }

    @ParameterizedTest
    @CsvSource({
        "write_bw, -n 200, 65536, 200, true, true",
        "write_bw, -n 100 -q 2 -s 1024, 1024, 200, true, true",
        // -n not a multiple of the CQ moderation (16), on 3 QPs: perftest's fill_count (CompletionCountTest)
        "write_bw, -n 100 -q 3 -t 16 -s 1024, 1024, 300, true, true",
        "read_bw, -n 200, 65536, 200, true, true",
        "send_bw, -n 200, 65536, 200, true, true",
        "atomic_bw, -n 200, 8, 200, true, true",
        "write_lat, -n 50, 2, 50, false, true",
        "send_lat, -n 50, 2, 50, false, true",
        "read_lat, -n 50, 2, 50, false, false",
        "send_bw, -n 200 -c UD -s 512, 512, 200, true, true",
        "send_bw, -n 100 -c UD -s 256 -q 2 -b, 256, 200, true, true", // -b: the row counts both ways
        "send_lat, -n 50 -c UD, 2, 50, false, true",
    })
    void twinsOverRdmaCm(String tool, String options, long size, long iters, boolean bw, boolean serverReports)
        throws Exception {
        List<Side> sides = runPair(tool, options.split(" "));
        Side server = sides.get(0);
        Side client = sides.get(1);
        String transcript = server.transcript("server") + "\n" + client.transcript("client");
        assertEquals(0, server.status, transcript);
        assertEquals(0, client.status, transcript);
        for (Side side : sides) {
            assertTrue(side.out.contains(" rdma_cm QPs\t : ON\n Data ex. method : rdma_cm\n"), transcript);
        }
        assertTrue(server.out.contains(" Data ex. method : rdma_cm\n" + PerftestReportWriterLine.LINE + "\n"
            + " Waiting for client rdma_cm QP to connect\n"
            + " Please run the same command with the IB/RoCE interface IP\n" + PerftestReportWriterLine.LINE + "\n"),
            transcript);
        assertFalse(client.out.contains("Waiting for client rdma_cm QP"), transcript);
        Matcher q = Pattern.compile("-q (\\d+)").matcher(options);
        int qps = q.find() ? Integer.parseInt(q.group(1)) : 1;
        List<String> serverLocal = addresses(server.out, "local");
        List<String> clientLocal = addresses(client.out, "local");
        assertEquals(qps, serverLocal.size(), transcript);
        assertEquals(qps, clientLocal.size(), transcript);
        assertEquals(serverLocal, addresses(client.out, "remote"), transcript);
        assertEquals(clientLocal, addresses(server.out, "remote"), transcript);
        // perftest prints the addresses by the control QP's verb (SEND): no OUT, RKey, VAddr
        assertTrue(serverLocal.get(0).matches("LID 0000 QPN 0x[0-9a-f]{4,6} PSN 0x[0-9a-f]{1,6} GID: .*"), transcript);
        assertTrue(serverLocal.get(0).endsWith("GID: 00:00:00:00:00:00:00:00:00:00:255:255:127:00:00:01"), transcript);
        assertTrue(clientLocal.get(0).endsWith("GID: 00:00:00:00:00:00:00:00:00:00:255:255:127:00:00:02"), transcript);
        assertRow(client.out, bw, size, iters, transcript);
        if (serverReports) {
            assertRow(server.out, bw, size, iters, transcript);
        }
    }

    /** perftest_parameters.c: -R with -c UC exits 1 after a line and " UC is not supported in librdmacm" on stdout. */
    @Test
    void ucIsRefusedAsPerftestDoes() throws Exception {
        Side s = run(List.of("write_bw", "-R", "-c", "UC", "--bind", SERVER));
        assertEquals(1, s.status, s.transcript("write_bw -R -c UC"));
        assertEquals(PerftestReportWriterLine.LINE + "\n UC is not supported in librdmacm\n", s.out);
        assertEquals("", s.err);
    }

    /**
     * -T with -R (perftest's rdma_set_option RDMA_OPTION_ID_TOS on the client's IDs once their
     * address is resolved: the control QP's and each test QP's): both sides say so after the data
     * exchange method, and the client's REQs carry the traffic class (read from its capture). -T
     * without -R is refused on stdout, exit 1, as perftest refuses it.
     */
    @ParameterizedTest
    @CsvSource({"write_bw, RC, 2, 0", "send_lat, UD, 1, 1"})
    void typeOfServiceWithRdmaCm(String tool, String type, int reqs, int sidrs,
                                 @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
        throws Exception {
        java.nio.file.Path pcap = dir.resolve("client.pcap");
        List<Side> sides = runPair(tool, List.of(SERVER), SERVER, List.of("--pcap", pcap.toString()), "-n", "20",
            "-c", type, "-T", "0xb8");
        String transcript = sides.get(0).transcript("server") + "\n" + sides.get(1).transcript("client");
        assertEquals(0, sides.get(0).status, transcript);
        assertEquals(0, sides.get(1).status, transcript);
        for (Side side : sides) {
            assertTrue(side.out.contains(" Data ex. method : rdma_cm \tTOS    : 184\n"), transcript);
        }
        // the client's REQs (RC: the control QP's and the test QP's) and SIDR_REQ (UD) to the server
        List<Integer> classes = new ArrayList<>();
        int sidrReqs = 0;
        for (io.jroce.stack.pcap.RoceFrame f : io.jroce.stack.pcap.RoceFrame.read(pcap)) {
            byte[] r = f.roce();
            int mad = 12 + 8;
            if (f.destQp() != 1 || r.length < mad + 256
                || f.dstIpv4() != java.nio.ByteBuffer.wrap(java.net.InetAddress.getByName(SERVER).getAddress()).getInt()) {
                continue;
            }
            int attribute = ((r[mad + 16] & 0xFF) << 8) | (r[mad + 17] & 0xFF);
            if (attribute == 0x10) { // REQ: the primary path's traffic class
                classes.add(r[mad + 76 + 40] & 0xFF);
            } else if (attribute == 0x17) {
                sidrReqs++;
            }
        }
        // a client run again while the server did not listen yet adds its refused control REQ (of 0xB8 too)
        assertEquals(java.util.Set.of(0xB8), new java.util.HashSet<>(classes), "the REQs' traffic class: " + classes);
        assertTrue(classes.size() >= reqs, "the control QP's REQ and (RC) the test QP's: " + classes);
        assertTrue(sidrReqs >= sidrs, "UD's SIDR_REQ: " + sidrReqs);

        Side refused = run(List.of(tool, "-T", "5", "--bind", CLIENT, SERVER));
        assertEquals(1, refused.status, refused.transcript("-T without -R"));
        assertEquals(" TOS only valid for rdma_cm based QP and RawEth QP \n", refused.out,
            refused.transcript("-T without -R"));
    }

    /**
     * With several QPs the client connects the first test QP alone and the others once it is
     * ESTABLISHED (docs/perftest-twins.md: perftest's own server listens after its handshake, and a
     * refused first REQ with a sibling's in flight made it exit). In the client's capture the last
     * two REQs, its test QPs', have the first one's RTU (sent on its REP, before ESTABLISHED)
     * between them.
     */
    @Test
    void theSecondTestQpConnectsOnlyOnceTheFirstIsEstablished(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
        throws Exception {
        java.nio.file.Path pcap = dir.resolve("client.pcap");
        List<Side> sides = runPair("write_bw", List.of(SERVER), SERVER, List.of("--pcap", pcap.toString()), "-n", "20",
            "-q", "2");
        String transcript = sides.get(0).transcript("server") + "\n" + sides.get(1).transcript("client");
        assertEquals(0, sides.get(0).status, transcript);
        assertEquals(0, sides.get(1).status, transcript);
        StringBuilder sent = new StringBuilder(); // the client's CM MADs to the server, in order: Q = REQ, U = RTU
        int server = java.nio.ByteBuffer.wrap(java.net.InetAddress.getByName(SERVER).getAddress()).getInt();
        for (io.jroce.stack.pcap.RoceFrame f : io.jroce.stack.pcap.RoceFrame.read(pcap)) {
            byte[] r = f.roce();
            int mad = 12 + 8;
            if (f.destQp() != 1 || r.length < mad + 256 || f.dstIpv4() != server) {
                continue;
            }
            int attribute = ((r[mad + 16] & 0xFF) << 8) | (r[mad + 17] & 0xFF);
            if (attribute == 0x10) {
                sent.append('Q');
            } else if (attribute == 0x14) {
                sent.append('U');
            }
        }
        String mads = sent.toString();
        int last = mads.lastIndexOf('Q');
        int before = mads.lastIndexOf('Q', last - 1);
        assertTrue(before >= 0 && mads.substring(before, last).contains("U"),
            "an RTU between the test QPs' REQs: " + mads);
    }

    /**
     * perftest 4.5-0.17 resolves the server with getaddrinfo(AF_INET), -R or not (--ipv6-addr came
     * later): an IPv6 server address fails with gai_strerror's line first, as the rxe lab's
     * ib_write_bw -R prints it, then the caller's lines, and exit status 1.
     */
    @Test
    void anIpv6ServerAddressIsRefusedAsPerftest45Refuses() throws Exception {
        Side cm = run(List.of("write_bw", "-R", "--bind", CLIENT, "-p", "18999", "::1"));
        assertEquals(1, cm.status, cm.transcript("write_bw -R ::1"));
        assertEquals("Address family for hostname not supported for ::1:18999\nProblem in resolving basic address"
            + " and port\n Unable to perform rdma_client function\n Unable to init the socket connection\n", cm.err,
            cm.transcript("write_bw -R ::1"));
        Side tcp = run(List.of("write_bw", "--bind", CLIENT, "-p", "18999", "::1"));
        assertEquals(1, tcp.status, tcp.transcript("write_bw ::1"));
        assertTrue(tcp.err.startsWith("Address family for hostname not supported for ::1:18999\nProblem in resolving"
            + " basic address and port\n"), tcp.transcript("write_bw ::1"));
    }

    /**
     * The server listens on the wildcard as perftest does (0.0.0.0): a client that connects to its
     * device's second address (--bind twice) gets the control QP and the test QPs, RC and UD. The
     * server still announces its GID of -x 0 (127.0.0.1), which the client prints as the remote one.
     */
    @ParameterizedTest
    @CsvSource({"write_bw, RC", "send_lat, UD"})
    void serverTakesClientsOnItsSecondAddress(String tool, String type) throws Exception {
        List<Side> sides = runPair(tool, List.of(SERVER, SECOND), SECOND, "-n", "20", "-c", type);
        String transcript = sides.get(0).transcript("server") + "\n" + sides.get(1).transcript("client");
        assertEquals(0, sides.get(0).status, transcript);
        assertEquals(0, sides.get(1).status, transcript);
        assertEquals(addresses(sides.get(0).out, "local"), addresses(sides.get(1).out, "remote"), transcript);
        assertTrue(addresses(sides.get(1).out, "remote").get(0)
            .endsWith("GID: 00:00:00:00:00:00:00:00:00:00:255:255:127:00:00:01"), transcript);
        assertRow(sides.get(1).out, tool.endsWith("_bw"), tool.endsWith("_bw") ? 65536 : 2, 20, transcript);
    }

    /** The key record as rdma_write_keys sends it with HAVE_ENDIAN: big-endian words, GID bytes at 32. */
    @Test
    void keyRecordLayout() {
        PerftestDest d = new PerftestDest(0, 16, 0x000123, 0xabcdef, 0x11223344, 0x00007f0012345678L,
            io.jroce.verbs.Gid.parse("10.0.0.1"), 0);
        byte[] r = d.toRecord(1);
        assertEquals(56, r.length);
        assertEquals("00000000" + "00000010" + "00000123" + "00abcdef" + "11223344" + "00000000" + "00007f0012345678"
            + "00000000000000000000ffff0a000001" + "00000000" + "00000001", hex(r));
        assertEquals(d, PerftestDest.fromRecord(r));
    }

    private static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(String.format("%02x", x & 0xFF));
        }
        return sb.toString();
    }

    private static List<String> addresses(String out, String side) {
        List<String> found = new ArrayList<>();
        Matcher m = ADDRESS.matcher(out);
        while (m.find()) {
            if (m.group(1).equals(side)) {
                found.add(m.group(2) + " GID: " + m.group(3));
            }
        }
        return found;
    }

    private static void assertRow(String out, boolean bw, long size, long iters, String transcript) {
        PerftestReport report = PerftestReportParser.parse(out);
        if (bw) {
            BwRow row = report.bwRows().stream().findFirst().orElse(null);
            assertTrue(row != null, "no result row\n" + transcript);
            assertEquals(List.of(size, iters), List.of(row.bytes(), row.iterations()), transcript);
            assertTrue(row.msgRateMpps() > 0, "message rate\n" + transcript);
        } else {
            LatencyRow row = report.latencyRows().stream().findFirst().orElse(null);
            assertTrue(row != null, "no result row\n" + transcript);
            assertEquals(List.of(size, iters), List.of(row.bytes(), row.iterations()), transcript);
        }
    }

    private static List<Side> runPair(String tool, String... options) throws Exception {
        return runPair(tool, List.of(SERVER), SERVER, options);
    }

    private static List<Side> runPair(String tool, List<String> serverBinds, String target, String... options)
        throws Exception {
        return runPair(tool, serverBinds, target, List.of(), options);
    }

    /** The server's device on {@code serverBinds}, the client's on CLIENT with {@code clientExtra}, connecting to {@code target}. */
    private static List<Side> runPair(String tool, List<String> serverBinds, String target, List<String> clientExtra,
                                      String... options) throws Exception {
        String port = Integer.toString(freeTcpPort());
        String udp = Integer.toString(TwinAddresses.freeUdpPort());
        List<String> common = new ArrayList<>(List.of(tool, "-R", "-p", port, "--udp-port", udp));
        common.addAll(Arrays.stream(options).filter(o -> !o.isBlank()).toList());
        List<String> serverArgs = new ArrayList<>(common);
        for (String b : serverBinds) {
            serverArgs.addAll(List.of("--bind", b));
        }
        List<String> clientArgs = new ArrayList<>(common);
        clientArgs.addAll(clientExtra);
        clientArgs.addAll(List.of("--bind", CLIENT, target));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Side> server = pool.submit(() -> run(serverArgs));
            Future<Side> clientRun = pool.submit(() -> {
                Side c = null;
                // Until the server listens its device answers REJ 8, which perftest's client reports as
                // "Unexpected CM event bl blka 8": run it again, a guard for the start-up, not a pace.
                for (StartupGuard guard = StartupGuard.start(); guard.waiting(); ) {
                    c = run(clientArgs);
                    if (!c.err.contains("Unexpected CM event bl blka 8")) {
                        break;
                    }
                    Thread.sleep(50);
                }
                return c;
            });
            while (!clientRun.isDone()) {
                if (server.isDone() && server.get().status != 0) {
                    // a failed server leaves its client waiting for the CM: report the server's reason
                    try {
                        return List.of(server.get(), clientRun.get(5, TimeUnit.SECONDS));
                    } catch (java.util.concurrent.TimeoutException e) {
                        clientRun.cancel(true);
                        return List.of(server.get(), new Side(-1, "(stopped: the server failed)", ""));
                    }
                }
                Thread.sleep(50); // a condition wait: either side's end
            }
            Side client = clientRun.get();
            if (client.status != 0) {
                // perftest's server waits forever for a client that failed: stop it
                try {
                    return List.of(server.get(5, TimeUnit.SECONDS), client);
                } catch (java.util.concurrent.TimeoutException e) {
                    server.cancel(true);
                    return List.of(new Side(-1, "(stopped: the client failed)", ""), client);
                }
            }
            return List.of(server.get(GUARD_S, TimeUnit.SECONDS), client);
        } finally {
            pool.shutdownNow();
        }
    }

    private static Side run(List<String> args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = Main.run(args.toArray(String[]::new), o, e);
        }
        return new Side(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static int freeTcpPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** The report's line (PerftestReportWriter.LINE), named here for the assertions. */
    private static final class PerftestReportWriterLine {
        static final String LINE = io.jroce.tools.perftest.report.PerftestReportWriter.LINE;
    }
}
