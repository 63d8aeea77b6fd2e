package io.jroce.stack.pcap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs tshark, when this machine has it, on a capture: every frame must dissect as InfiniBand
 * (RoCEv2) and none may be malformed. tshark is not a build prerequisite, so a test without it is
 * skipped, saying why.
 *
 * <p>The RPC-over-RDMA heuristic ({@code rpcrdma_infiniband}) is switched off: its
 * {@code packet_is_rpcordma} reads the payload's bytes 12..15 before it checks the length, so
 * tshark 4.0 marks every SEND Only with less than 16 bytes of payload malformed, from rxe or
 * anyone else (ibv_rc_pingpong -s 1 makes such packets).
 */
final class Tshark {
    private static final long TIMEOUT_S = 120;

    private Tshark() {
    }

    static Path executable() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path p = Path.of(dir, "tshark");
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    static void assumeInstalled() {
        Assumptions.assumeTrue(executable() != null,
            "tshark is not installed: the capture was not checked with a dissector (apt-get install tshark)");
    }

    /**
     * Checks every frame of {@code capture}, decoding {@code roceUdpPorts} as RoCEv2 (tshark does
     * that for 4791 by itself; tests bind other ports).
     */
    static void assertEveryFrameIsWellFormedRoce(Path capture, int expectedFrames, int... roceUdpPorts)
        throws IOException, InterruptedException {
        List<String> protocols = run(capture, roceUdpPorts, "-T", "fields", "-e", "frame.number", "-e", "frame.protocols");
        assertEquals(expectedFrames, protocols.size(), () -> "tshark saw " + protocols.size() + " frames:\n" + protocols);
        for (String line : protocols) {
            assertTrue(line.contains(":infiniband"), () -> "not dissected as RoCEv2: " + line);
        }
        List<String> bad = run(capture, roceUdpPorts, "-Y", "_ws.malformed || _ws.expert.severity >= \"Error\"");
        assertTrue(bad.isEmpty(), () -> "tshark flags these frames:\n" + String.join("\n", bad));
    }

    private static List<String> run(Path capture, int[] ports, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(executable().toString(), "-n", "-r", capture.toString(),
            "--disable-heuristic", "rpcrdma_infiniband"));
        for (int port : ports) {
            if (port != 4791) {
                cmd.addAll(List.of("-d", "udp.port==" + port + ",infiniband"));
            }
        }
        cmd.addAll(List.of(args));
        Path errFile = Files.createTempFile("tshark", ".err");
        try {
            Process p = new ProcessBuilder(cmd).redirectError(errFile.toFile()).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("tshark did not finish within " + TIMEOUT_S + " s: " + cmd);
            }
            String stderr = Files.readString(errFile);
            assertEquals(0, p.exitValue(), () -> "tshark failed: " + cmd + "\n" + stderr);
            return new String(out, StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
        } finally {
            Files.deleteIfExists(errFile);
        }
    }
}
