package io.jroce.tools.cmtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.rnic.SoftRnic;
import io.jroce.testsupport.StartupGuard;
import io.jroce.tools.CommandRunner;
import io.jroce.tools.Main;
import io.jroce.verbs.RdmaDevice;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code jroce cmtime} client against {@code jroce cmtime} server on loopback (127.0.0.1 and
 * 127.0.0.2, one free UDP port): cmtime's step lines and table, a client nobody listens for, and
 * a bad option. Timings are not asserted, only the table's shape.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CmtimeCommandTest {
    private static final String SERVER = "127.0.0.1";
    private static final String CLIENT = "127.0.0.2";
    static final String HEADER = "step              total ms     max ms     min us  us / conn";
    /** One row: the step left-aligned in 13 columns, then four %11.2f (values below 10^8). */
    private static final String FIELD = "[ \\d]{7}\\d\\.\\d{2}";

    static Pattern row(String step) {
        return Pattern.compile(Pattern.quote(String.format("%-13s: ", step)) + FIELD + FIELD + FIELD + FIELD);
    }

    static int freeUdpPort() {
        while (true) {
            try (DatagramSocket a = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(SERVER), 0))) {
                int p = a.getLocalPort();
                try (DatagramSocket b = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(CLIENT), p))) {
                    return p;
                } catch (IOException taken) {
                    // try another
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @Test
    void twentyConnectionsGoThroughEveryStepAndTheTableHasARowEach() throws Exception {
        String udp = Integer.toString(freeUdpPort());
        ExecutorService pool = Executors.newSingleThreadExecutor();
        ByteArrayOutputStream serverOut = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(serverOut, true, StandardCharsets.UTF_8);
        Future<Integer> server = pool.submit(() -> Main.run(new String[] {"cmtime", "-b", SERVER, "-p", "7480",
            "--udp-port", udp}, print, print));
        try {
            CommandRunner client = null;
            for (StartupGuard guard = StartupGuard.start(); guard.waiting(); ) {
                client = CommandRunner.run("cmtime", "-s", SERVER, "-b", CLIENT, "-c", "20", "-p", "7480", "--udp-port",
                    udp);
                if (!client.out().contains("RDMA_CM_EVENT_REJECTED, error: 8")) {
                    break; // before the server listens its device answers REJ 8: a start-up guard
                }
                Thread.sleep(50);
            }
            String context = client.transcript() + "\n--- server:\n" + serverOut;
            assertEquals(0, client.status(), context);
            assertEquals("", client.err(), context);
            List<String> lines = client.out().lines().toList();
            assertEquals(List.of("creating id", "binding source address", "resolving address", "resolving route",
                "creating qp", "connecting", "disconnecting", "destroying id", HEADER), lines.subList(0, 9), context);
            List<String> steps = List.of("create id", "bind addr", "resolve addr", "resolve route", "create qp",
                "connect", "disconnect", "destroy");
            assertEquals(9 + steps.size(), lines.size(), context);
            for (int i = 0; i < steps.size(); i++) {
                assertTrue(row(steps.get(i)).matcher(lines.get(9 + i)).matches(), lines.get(9 + i) + "\n" + context);
            }
            assertFalse(server.isDone(), "cmtime's server serves until it is stopped\n" + serverOut);
            assertEquals("", serverOut.toString(StandardCharsets.UTF_8), "cmtime's server prints nothing");
        } finally {
            server.cancel(true);
            pool.shutdown();
            assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS), "the server tears down");
        }
    }

    /**
     * Nobody listens on the port: each connection prints its REJECTED (reason 8), is left out of
     * the later steps, and cmtime still exits 0; without -b there is no bind row.
     */
    @Test
    void rejectedConnectionsArePrintedAndTheClientExitsZero() throws Exception {
        int udp = freeUdpPort();
        try (RdmaDevice bare = SoftRnic.builder().address(CLIENT).udpPort(udp).open()) {
            // the client's device takes the route's source to 127.0.0.2: 127.0.0.1
            CommandRunner r = CommandRunner.run("cmtime", "-s", CLIENT, "-c", "3", "-p", "7481", "--udp-port",
                Integer.toString(udp));
            assertEquals(0, r.status(), r.transcript() + bare.name());
            List<String> lines = r.out().lines().toList();
            assertEquals(Stream.of(List.of("creating id", "resolving address", "resolving route", "creating qp",
                    "connecting"), List.of("event: RDMA_CM_EVENT_REJECTED, error: 8").stream().flatMap(l ->
                    Stream.of(l, l, l)).toList(), List.of("disconnecting", "destroying id", HEADER))
                .flatMap(List::stream).toList(), lines.subList(0, 11), r.transcript());
            assertEquals(11 + 7, lines.size(), r.transcript());
            assertTrue(lines.get(11 + 4).startsWith("connect      : "), r.transcript());
            assertTrue(Pattern.compile("disconnect   : " + FIELD + "       0\\.001000000000\\.00" + FIELD)
                .matcher(lines.get(11 + 5)).matches(),
                "no connection disconnected: max 0, and cmtime's float minimum stays 999999999\n" + r.transcript());
        }
    }

    @Test
    void anUnknownOptionPrintsGetoptsComplaintAndTheUsage() throws Exception {
        CommandRunner r = CommandRunner.run("cmtime", "-x");
        assertEquals(1, r.status(), r.transcript());
        assertEquals("cmtime: invalid option -- 'x'\n", r.err());
        assertEquals("usage: cmtime\n\t[-s server_address]\n\t[-b bind_address]\n\t[-c connections]\n"
            + "\t[-p port_number]\n\t[-r retries]\n\t[-t timeout_ms]\n", r.out());
    }
}
