package io.jroce.tools.mckey;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jroce.tools.Main;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jroce mckey} receiver against {@code jroce mckey -s} sender on one multicast-capable address
 * of the host (multicast loops back to the host's own members). The sender runs in a JVM of its own:
 * jroce's RDMA CM finds a device by its address, and two devices of one JVM on one address would be
 * one device to it. The receiver's device takes a free UDP port, the group's; the sender's another,
 * sending to the receiver's ({@code --peer-udp-port}). Needs an interface that is up, has carrier
 * and is multicast-capable (loopback is not): skipped without one, failed under CI=true.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MckeyCommandTest {
    private static final long GUARD_S = 120;

    private String address;

    @BeforeEach
    void findAddress() throws IOException {
        address = multicastCapableIpv4();
        if (address == null && "true".equalsIgnoreCase(System.getenv("CI"))) {
            fail("CI=true: no multicast-capable IPv4 interface that is up with carrier");
        }
        assumeTrue(address != null, "no multicast-capable IPv4 interface with carrier");
    }

    /** mckey's defaults: the sender's 10 datagrams of 100 bytes reach the receiver; both exit 0 with mckey's lines. */
    @Test
    void aReceiverGetsTheSendersTenDatagramsAndBothPrintMckeysLines(@TempDir Path dir) throws Exception {
        String group = "239.255.81.1";
        exchange(dir, group, List.of("-m", group, "-b", address), List.of("-s", "-m", group, "-b", address), 1);
    }

    /**
     * Every ID of a receiver joined the group and its QP is attached: each of the -c 2 QPs receives
     * every one of the 4 datagrams of 1000 bytes (a receiver waits for -C completions per ID).
     */
    @Test
    void everyIdOfAReceiverGetsEveryDatagram(@TempDir Path dir) throws Exception {
        String group = "239.255.81.2";
        exchange(dir, group, List.of("-m", group, "-b", address, "-c", "2", "-C", "4", "-S", "1000"),
            List.of("-s", "-m", group, "-b", address, "-C", "4", "-S", "1000"), 2);
    }

    /**
     * -o on the sender: a send-only full member (no QP attached, no group membership: see
     * RdmaCmMulticastUdpTest) still sends every datagram to the group, and prints mckey's lines.
     */
    @Test
    void aSendOnlySenderStillReachesTheReceiver(@TempDir Path dir) throws Exception {
        String group = "239.255.81.3";
        exchange(dir, group, List.of("-m", group, "-b", address), List.of("-s", "-o", "-m", group, "-b", address), 1);
    }

    private void exchange(Path dir, String group, List<String> receiverArgs, List<String> senderArgs, int receiverIds)
        throws Exception {
        int[] ports = twoFreePorts();
        List<String> r = new ArrayList<>(receiverArgs);
        r.addAll(List.of("--udp-port", Integer.toString(ports[0])));
        List<String> s = new ArrayList<>(senderArgs);
        s.addAll(List.of("--udp-port", Integer.toString(ports[1]), "--peer-udp-port", Integer.toString(ports[0])));

        ExecutorService pool = Executors.newSingleThreadExecutor();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] line = new String[r.size() + 1];
        line[0] = "mckey";
        for (int i = 0; i < r.size(); i++) {
            line[i + 1] = r.get(i);
        }
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        Future<Integer> receiver = pool.submit(() -> Main.run(line, o, e));
        Process sender = null;
        try {
            String joined = "mckey: joined dgid: ::ffff:" + group + " mlid 0x0 sl 0";
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_S);
            // The receiver must have joined (every ID) before the sender sends.
            while (out.toString(StandardCharsets.UTF_8).lines().filter(joined::equals).count() < receiverIds) {
                assertTrue(System.nanoTime() - deadline < 0 && !receiver.isDone(), "receiver did not join\n" + out + err);
                Thread.sleep(10);
            }
            Path senderOut = dir.resolve("sender.out");
            Path senderErr = dir.resolve("sender.err");
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), Main.class.getName(), "mckey"));
            command.addAll(s);
            sender = new ProcessBuilder(command).redirectOutput(senderOut.toFile()).redirectError(senderErr.toFile())
                .start();
            assertTrue(sender.waitFor(GUARD_S, TimeUnit.SECONDS), "sender did not end");
            String so = Files.readString(senderOut);
            String context = "--- sender\n" + so + Files.readString(senderErr) + "--- receiver\n" + out + err;
            assertEquals(0, sender.exitValue(), context);
            assertEquals(List.of("mckey: starting client", "mckey: joining", joined, "initiating data transfers",
                "data transfers complete", "test complete", "return status 0"), so.lines().toList(), context);

            int status = receiver.get(GUARD_S, TimeUnit.SECONDS);
            assertEquals(0, status, context);
            List<String> expected = new ArrayList<>(List.of("mckey: starting server", "mckey: joining"));
            for (int i = 0; i < receiverIds; i++) {
                expected.add(joined);
            }
            expected.addAll(List.of("receiving data transfers", "data transfers complete", "test complete",
                "return status 0"));
            assertEquals(expected, out.toString(StandardCharsets.UTF_8).lines().toList(), context);
            assertEquals("", err.toString(StandardCharsets.UTF_8), context);
        } finally {
            if (sender != null) {
                sender.destroyForcibly();
            }
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(GUARD_S, TimeUnit.SECONDS), "receiver did not stop");
        }
    }

    private int[] twoFreePorts() throws IOException {
        InetAddress a = InetAddress.getByName(address);
        try (DatagramSocket x = new DatagramSocket(0, a); DatagramSocket y = new DatagramSocket(0, a)) {
            return new int[] {x.getLocalPort(), y.getLocalPort()};
        }
    }

    /** Linux: the interface of the IPv4 default route (/proc/net/route), or null. */
    private static String defaultRouteInterface() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/net/route"))) {
                String[] f = l.trim().split("\\s+");
                if (f.length > 1 && f[1].equals("00000000")) {
                    return f[0];
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    /** An IPv4 address on an interface that is up, has carrier and multicast; the default route's first. */
    private static String multicastCapableIpv4() throws IOException {
        List<NetworkInterface> all = new ArrayList<>(Collections.list(NetworkInterface.getNetworkInterfaces()));
        String defaultRoute = defaultRouteInterface();
        all.sort(Comparator.comparing(ni -> !ni.getName().equals(defaultRoute)));
        for (NetworkInterface ni : all) {
            Path state = Path.of("/sys/class/net", ni.getName(), "operstate");
            boolean carrier = !Files.exists(state) || Files.readString(state).trim().equals("up");
            if (!ni.isUp() || ni.isLoopback() || !ni.supportsMulticast() || !carrier) {
                continue;
            }
            for (InetAddress a : Collections.list(ni.getInetAddresses())) {
                if (a instanceof Inet4Address) {
                    return a.getHostAddress();
                }
            }
        }
        return null;
    }
}
