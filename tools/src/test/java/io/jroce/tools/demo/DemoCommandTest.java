package io.jroce.tools.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;
import io.jroce.verbs.Mtu;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class DemoCommandTest {
    private static final int STEPS = DemoSteps.forMtu(Mtu.MTU_1024).size();

    private static long verifiedLines(String out) {
        return Arrays.stream(out.split("\n")).filter(l -> l.matches("\\s*\\d+\\s+[A-Z_]+\\s+\\d+\\s.*\\sverified.*")).count();
    }

    @Test
    void everyStepVerifiesOverIpv4() throws InterruptedException {
        CommandRunner r = CommandRunner.run("demo", "--port", "24791");
        assertEquals(ExitStatus.OK, r.status(), r.transcript());
        assertEquals(STEPS, verifiedLines(r.out()), r.transcript());
        assertTrue(r.out().contains(STEPS + " of " + STEPS + " steps verified"), r.transcript());
        assertTrue(r.err().lines().noneMatch(l -> l.startsWith("jroce demo")), r.transcript());
    }

    @Test
    void everyStepVerifiesOverIpv6AtMtu4096() throws InterruptedException {
        Assumptions.assumeTrue(ipv6Loopback(), "no IPv6 loopback on this machine");
        CommandRunner r = CommandRunner.run("demo", "--ipv6", "--mtu", "4096", "--port", "24793", "--seed", "7");
        assertEquals(ExitStatus.OK, r.status(), r.transcript());
        assertEquals(STEPS, verifiedLines(r.out()), r.transcript());
        assertTrue(r.out().contains("path MTU 4096, seed 7"), r.transcript());
    }

    @Test
    void portInUseIsAClearError() throws Exception {
        try (DatagramSocket holder = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 24797))) {
            CommandRunner r = CommandRunner.run("demo", "--port", Integer.toString(holder.getLocalPort()));
            assertEquals(ExitStatus.FAILED, r.status(), r.transcript());
            List<String> lines = r.err().lines().toList();
            assertEquals(2, lines.size(), r.transcript());
            // the progress mode the device runs in (the default, or -Djroce.progress) may name itself before the cause
            assertTrue(lines.get(0).matches("jroce demo: error: cannot open device jroce1 on \\[127\\.0\\.0\\.2] port 24797"
                + "( in the invoker progress mode)?: cannot bind a UDP socket to 127\\.0\\.0\\.2:24797: .*Address already in use"),
                r.transcript());
            assertEquals("jroce demo: UDP port 24797 is taken: another jroce, or the kernel's rxe, may hold it; choose"
                + " another with --udp-port", lines.get(1));
        }
    }

    private static boolean ipv6Loopback() {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("::1"), 0))) {
            return s.getLocalPort() > 0;
        } catch (SocketException | UnknownHostException e) {
            return false;
        }
    }
}
