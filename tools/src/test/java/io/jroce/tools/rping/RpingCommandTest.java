package io.jroce.tools.rping;

import static io.jroce.tools.cmcommon.TwinAddresses.CLIENT;
import static io.jroce.tools.cmcommon.TwinAddresses.SERVER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.testsupport.StartupGuard;
import io.jroce.tools.cmcommon.TwinAddresses;
import io.jroce.tools.cmcommon.TwinSide;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code jroce rping} server against {@code jroce rping} client over UDP on loopback, each with a
 * device of its own (127.0.0.1 and 127.0.0.2, one free UDP port for both, as the RDMA CM sends to
 * the peer's port that is its own): the exact lines of -v, -V and -d, the exit statuses, the end of
 * a connection, a refused connection, and -P.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RpingCommandTest {

    /** What the server READs and WRITEs back in ping {@code n} of {@code size} bytes, as rping's loop fills it. */
    static String pingData(int n, int size) {
        StringBuilder sb = new StringBuilder("rdma-ping-" + n + ": ");
        char c = (char) ('A' + n % 58);
        while (sb.length() < size - 1) {
            sb.append(c);
            c = c == 'z' ? 'A' : (char) (c + 1);
        }
        return sb.toString();
    }

    /** {@code jroce rping args...}. */
    private static TwinSide rping(String... args) {
        return TwinSide.start(line(args));
    }

    /** A client run again while its server's device answered REJ 8 (the server does not listen yet). */
    private static TwinSide clientWhileRejected(String... args) throws Exception {
        return TwinSide.startAgainWhile(c -> statusOf(c) != 0
            && c.err().contains("RDMA_CM_EVENT_REJECTED, error 8"), line(args));
    }

    private static int statusOf(TwinSide side) {
        try {
            return side.await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String[] line(String... args) {
        String[] line = new String[args.length + 1];
        line[0] = "rping";
        System.arraycopy(args, 0, line, 1, args.length);
        return line;
    }

    @ParameterizedTest(name = "-S {0}")
    @ValueSource(ints = {64, 4096, 65535})
    void twoHundredValidatedPingsPrintTheSameDataOnBothSidesAndExitZero(int size) throws Exception {
        String udp = Integer.toString(TwinAddresses.freeUdpPort());
        String sizeArg = Integer.toString(size);
        try (TwinSide server = rping("-s", "-v", "-V", "-a", SERVER, "-S", sizeArg, "--udp-port", udp);
             TwinSide client = clientWhileRejected("-c", "-v", "-V", "-C", "200", "-S", sizeArg, "-a",
                 SERVER, "-I", CLIENT, "--udp-port", udp)) {
            String context = server.transcript() + "\n" + client.transcript();
            assertEquals(0, client.await(), context);
            assertEquals(0, server.await(), server.transcript() + "\n" + client.transcript());
            context = server.transcript() + "\n" + client.transcript();
            List<String> data = IntStream.range(0, 200).mapToObj(n -> pingData(n, size)).toList();
            assertEquals(data.stream().map(d -> "ping data: " + d).toList(), client.outLines(), context);
            assertEquals(List.of("client DISCONNECT EVENT..."), client.errLines(), context);
            assertEquals(data.stream().map(d -> "server ping data: " + d).toList(), server.outLines(), context);
            assertEquals(List.of("server DISCONNECT EVENT...", "wait for RDMA_READ_ADV state 10"), server.errLines(),
                context);
        }
    }

    /**
     * Without -I the client's device takes the address the route to -a comes from: 127.0.0.1 for
     * 127.0.0.2 (the server's device has 127.0.0.2, so both open). The server's --pcap captures its
     * device's packets from 127.0.0.1.
     */
    @Test
    void theRouteToTheServerChoosesTheClientsAddress(@TempDir Path dir) throws Exception {
        String udp = Integer.toString(TwinAddresses.freeUdpPort());
        Path pcap = dir.resolve("server.pcap");
        try (TwinSide server = rping("-s", "-a", CLIENT, "--udp-port", udp, "--pcap", pcap.toString());
             TwinSide client = clientWhileRejected("-c", "-V", "-C", "3", "-a", CLIENT, "--udp-port", udp)) {
            String context = server.transcript() + "\n" + client.transcript();
            assertEquals(0, client.await(), context);
            assertEquals(0, server.await(), context);
            assertEquals("", client.out(), context);
            assertEquals("", server.out(), context);
        }
        byte[] captured = Files.readAllBytes(pcap);
        assertTrue(captured.length > 24, "a pcap header and packets: " + captured.length);
        byte[] from = InetAddress.getByName(SERVER).getAddress();
        assertTrue(indexOf(captured, from) > 0, "packets from the client's routed address 127.0.0.1");
    }

    /**
     * A server on the wildcard (rping's default) binds 0.0.0.0 itself, as rping does: one listener for
     * every address of its device, here a client to the second one.
     */
    @Test
    void aWildcardServerTakesAClientToAnyAddressOfItsDevice() throws Exception {
        String udp = Integer.toString(TwinAddresses.freeUdpPort());
        try (TwinSide server = rping("-s", "-d", "-a", "0.0.0.0", "--bind", SERVER, "--bind", "127.0.0.3",
                 "-p", "7310", "--udp-port", udp);
             TwinSide client = clientWhileRejected("-c", "-V", "-C", "3", "-a", "127.0.0.3", "-I", CLIENT,
                 "-p", "7310", "--udp-port", udp)) {
            String context = server.transcript() + "\n" + client.transcript();
            assertEquals(0, client.await(), context);
            assertEquals(0, server.await(), context);
            assertTrue(server.outLines().contains("rdma_bind_addr successful"), context);
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /**
     * -d: rping's debug lines in its order, and the buffers the client advertises ("RDMA addr %x rkey
     * %x len %d") are the ones the server receives ("Received rkey %x addr %x len %d from peer").
     */
    @Test
    void debugLinesFollowRpingsAndTheAdvertisedBuffersArriveAtTheServer() throws Exception {
        String udp = Integer.toString(TwinAddresses.freeUdpPort());
        try (TwinSide server = rping("-d", "-s", "-a", SERVER, "-p", "7300", "--udp-port", udp);
             TwinSide client = clientWhileRejected("-d", "-c", "-C", "2", "-p", "7300", "-a", SERVER, "-I",
                 CLIENT, "--udp-port", udp)) {
            String context = server.transcript() + "\n" + client.transcript();
            assertEquals(0, client.await(), context);
            assertEquals(0, server.await(), context);
            context = server.transcript() + "\n" + client.transcript();
            List<String> c = shapes(client.outLines());
            assertEquals(List.of("client", "count 2", "port 7300", "created cm_id ?",
                "cma_event type RDMA_CM_EVENT_ADDR_RESOLVED cma_id ? (parent)",
                "cma_event type RDMA_CM_EVENT_ROUTE_RESOLVED cma_id ? (parent)",
                "rdma_resolve_addr - rdma_resolve_route successful", "created pd ?", "created channel ?",
                "created cq ?", "created qp ?", "rping_setup_buffers called on cb ?", "allocated & registered buffers..."),
                c.subList(0, 13), context);
            assertTrue(c.containsAll(List.of("cq_thread started.",
                "cma_event type RDMA_CM_EVENT_ESTABLISHED cma_id ? (parent)", "ESTABLISHED", "rdma_connect successful",
                "cma_event type RDMA_CM_EVENT_DISCONNECTED cma_id ? (parent)")), context);
            assertEquals(List.of("rping_free_buffers called on cb ?", "destroy cm_id ?"), c.subList(c.size() - 2, c.size()),
                context);
            assertEquals(4, c.stream().filter("send completion"::equals).count(), context);
            assertEquals(4, c.stream().filter("recv completion"::equals).count(), context);

            List<String> s = shapes(server.outLines());
            assertEquals(List.of("server", "port 7300", "created cm_id ?", "rdma_bind_addr successful", "rdma_listen",
                "cma_event type RDMA_CM_EVENT_CONNECT_REQUEST cma_id ? (child)", "child cma ?"), s.subList(0, 7), context);
            assertTrue(s.containsAll(List.of("accepting client connection request",
                "cma_event type RDMA_CM_EVENT_ESTABLISHED cma_id ? (child)", "server received sink adv",
                "server posted rdma read req ", "rdma read completion", "server received read complete",
                "server posted go ahead", "rdma write completion", "server rdma write complete ",
                "cma_event type RDMA_CM_EVENT_DISCONNECTED cma_id ? (child)")), context);
            assertEquals(List.of("rping_free_buffers called on cb ?", "destroy cm_id ?"), s.subList(s.size() - 2, s.size()),
                context);
            assertEquals(2, s.stream().filter(l -> l.startsWith("rdma write from lkey ") && l.endsWith(" len 64")).count(),
                context);

            Pattern advertised = Pattern.compile("RDMA addr ([0-9a-f]+) rkey ([0-9a-f]+) len (\\d+)");
            Pattern received = Pattern.compile("Received rkey ([0-9a-f]+) addr ([0-9a-f]+) len (-?\\d+) from peer");
            List<String> sent = new ArrayList<>();
            for (String l : client.outLines()) {
                Matcher m = advertised.matcher(l);
                if (m.matches()) {
                    sent.add(m.group(1) + "/" + m.group(2) + "/" + m.group(3));
                }
            }
            List<String> got = new ArrayList<>();
            for (String l : server.outLines()) {
                Matcher m = received.matcher(l);
                if (m.matches()) {
                    got.add(m.group(2) + "/" + m.group(1) + "/" + m.group(3));
                }
            }
            assertEquals(4, sent.size(), context);
            assertEquals(sent, got, context);
            assertTrue(sent.get(0).endsWith("/64") && !sent.get(0).equals(sent.get(1)), "start then sink buffer: " + sent);
        }
    }

    /**
     * A client to a port where nobody listens gets REJ 8 from the server's device at once: rping's
     * line, its main thread's two, and exit status 255 (its CM thread's exit(-1)), not a hang. The
     * server is a persistent one that has served a client first, so its device surely runs.
     */
    @Test
    void aPortNobodyListensOnIsRejectedAndTheClientFailsWith255() throws Exception {
        String udp = Integer.toString(TwinAddresses.freeUdpPort());
        try (TwinSide server = rping("-s", "-P", "-a", SERVER, "--udp-port", udp)) {
            try (TwinSide served = clientWhileRejected("-c", "-C", "1", "-a", SERVER, "-I", CLIENT,
                "--udp-port", udp)) {
                assertEquals(0, served.await(), served.transcript() + "\n" + server.transcript());
            }
            try (TwinSide refused = rping("-c", "-C", "1", "-a", SERVER, "-I", CLIENT, "-p", "7175",
                "--udp-port", udp)) {
                String context = refused.transcript() + "\n" + server.transcript();
                assertEquals(255, refused.await(), context);
                context = refused.transcript() + "\n" + server.transcript();
                assertEquals(List.of("cma event RDMA_CM_EVENT_REJECTED, error 8", "wait for CONNECTED state 4",
                    "connect error -1"), refused.errLines(), context);
                assertEquals("", refused.out(), context);
            }
            server.cancel();
        }
    }

    /**
     * Without -P a second client while the first pings is rejected (REJ 28, the twin's choice where
     * rping 44 would mix the two up); the first, pinging forever (-C 0), stopped from outside,
     * still disconnects, and the server ends with status 0.
     */
    @Test
    void aServerWithoutPRejectsASecondClientAndEndsWhenTheFirstIsStopped() throws Exception {
        String udp = Integer.toString(TwinAddresses.freeUdpPort());
        try (TwinSide server = rping("-s", "-a", SERVER, "--udp-port", udp)) {
            TwinSide forever = null;
            for (StartupGuard guard = StartupGuard.start(); guard.waiting() && forever == null; ) {
                TwinSide c = rping("-c", "-v", "-V", "-a", SERVER, "-I", CLIENT, "--udp-port", udp);
                while (!c.isDone() && !c.out().contains("ping data: ")) {
                    Thread.sleep(10); // a condition wait: its first ping, or its end (REJ 8 before the server listens)
                }
                if (c.isDone()) {
                    assertTrue(c.err().contains("RDMA_CM_EVENT_REJECTED, error 8"), c.transcript());
                    c.close();
                } else {
                    forever = c;
                }
            }
            try (TwinSide first = forever;
                 TwinSide second = rping("-c", "-C", "1", "-a", SERVER, "-I", "127.0.0.3", "--udp-port",
                     udp)) {
                String context = second.transcript() + "\n" + server.transcript();
                assertEquals(255, second.await(), context);
                assertEquals(List.of("cma event RDMA_CM_EVENT_REJECTED, error 28", "wait for CONNECTED state 4",
                    "connect error -1"), second.errLines(), context);
                first.close(); // stopped from outside
                assertTrue(first.out().lines().allMatch(l -> l.startsWith("ping data: rdma-ping-")), first.transcript());
            }
            assertEquals(0, server.await(), server.transcript());
            // the step the server waited in when the DREQ came depends on where the client was stopped
            List<String> err = server.errLines();
            assertEquals(2, err.size(), server.transcript());
            assertEquals("server DISCONNECT EVENT...", err.get(0), server.transcript());
            assertTrue(err.get(1).matches("wait for RDMA_(READ|WRITE)_(ADV|COMPLETE) state 10"), server.transcript());
        }
    }

    /** -P: the server serves clients one after the other (and would at once) until it is stopped. */
    @Test
    void aPersistentServerServesSeveralClients() throws Exception {
        String udp = Integer.toString(TwinAddresses.freeUdpPort());
        try (TwinSide server = rping("-s", "-P", "-v", "-a", SERVER, "--udp-port", udp)) {
            for (int i = 0; i < 3; i++) {
                try (TwinSide client = clientWhileRejected("-c", "-V", "-v", "-C", "5", "-a", SERVER, "-I",
                    CLIENT, "--udp-port", udp)) {
                    assertEquals(0, client.await(), client.transcript() + "\n" + server.transcript());
                    assertEquals(IntStream.range(0, 5).mapToObj(n -> "ping data: " + pingData(n, 64)).toList(),
                        client.outLines(), client.transcript());
                }
            }
            server.cancel();
            List<String> once = IntStream.range(0, 5).mapToObj(n -> "server ping data: " + pingData(n, 64)).toList();
            List<String> thrice = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                thrice.addAll(once);
            }
            assertEquals(thrice, server.outLines(), server.transcript());
            server.close(); // its run has ended: a device it could not close would take the next server's address
            assertTrue(server.errLines().stream().noneMatch(l -> l.contains("could not close")), server.transcript());
        }
        // stopped, it closed its device: a new server on its address and port serves the next client
        try (TwinSide server = rping("-s", "-a", SERVER, "--udp-port", udp);
             TwinSide client = clientWhileRejected("-c", "-C", "1", "-a", SERVER, "-I", CLIENT,
                 "--udp-port", udp)) {
            assertEquals(0, client.await(), client.transcript() + "\n" + server.transcript());
            assertEquals(0, server.await(), server.transcript());
        }
    }

    /** Pointers blanked: rping prints its own, jroce its objects' identities. */
    private static List<String> shapes(List<String> lines) {
        return lines.stream().map(l -> l.replaceAll("0x[0-9a-f]+", "?")).toList();
    }
}
