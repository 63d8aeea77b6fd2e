package io.jroce.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * tshark, Wireshark's dissectors on the command line, as the independent judge of captures: every
 * frame must dissect as InfiniBand over UDP (RoCEv2) with nothing malformed. tshark is not a build
 * prerequisite: without it a check is skipped, saying why, except under {@code CI=true}, where it
 * fails (.ci/run installs tshark).
 *
 * <p>Every run switches the RPC-over-RDMA heuristic ({@code rpcrdma_infiniband}) off: tshark 4.0's
 * {@code packet_is_rpcordma} reads payload bytes 12..15 before it checks the length, so it marks
 * every SEND Only with less than 16 bytes of payload malformed, from rxe or anyone else
 * ({@code ibv_rc_pingpong -s 1} makes such packets).
 */
public final class Tshark {
    /** How long one run may take before the test is declared hung. */
    public static final long TIMEOUT_S = 300;
    private static final String MISSING = "tshark is not installed: the capture was not checked with a dissector "
        + "(apt-get install tshark)";
    private static final int ROCE_V2_PORT = 4791;

    private final Path executable;
    private final int[] roceUdpPorts;

    private Tshark(Path executable, int[] roceUdpPorts) {
        this.executable = executable;
        this.roceUdpPorts = roceUdpPorts;
    }

    /** tshark on the {@code PATH}, else {@code /usr/bin/tshark}, if either is there. */
    public static Optional<Path> find() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "tshark"))) {
                return Optional.of(Path.of(dir, "tshark"));
            }
        }
        Path usual = Path.of("/usr/bin/tshark");
        return Files.isExecutable(usual) ? Optional.of(usual) : Optional.empty();
    }

    /** True when the environment variable {@code CI} is {@code true}: then no check may be left out. */
    public static boolean onCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /**
     * The installed tshark. Without one the calling test is skipped (a JUnit assumption, with the
     * reason), or fails under {@code CI=true}.
     */
    public static Tshark require() {
        Optional<Tshark> t = ifInstalled();
        Assumptions.assumeTrue(t.isPresent(), MISSING);
        return t.get();
    }

    /**
     * The installed tshark, or empty for a caller that goes on without the check (and says so);
     * under {@code CI=true} a missing tshark fails instead.
     */
    public static Optional<Tshark> ifInstalled() {
        Optional<Path> p = find();
        if (p.isEmpty() && onCi()) {
            throw new AssertionError(MISSING + ", and CI=true allows no skipped check");
        }
        return p.map(path -> new Tshark(path, new int[0]));
    }

    public Path executable() {
        return executable;
    }

    /** The same tshark, decoding UDP {@code ports} as RoCEv2 too (it does so for 4791 by itself; tests bind others). */
    public Tshark decodingAsRoce(int... ports) {
        return new Tshark(executable, ports.clone());
    }

    /**
     * Runs tshark on {@code capture} with {@code args} after the reading options; returns the
     * non-blank lines it printed. Fails the test when tshark fails or hangs.
     */
    public List<String> read(Path capture, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(executable.toString(), "-n", "-r", capture.toString(),
            "--disable-heuristic", "rpcrdma_infiniband"));
        for (int port : roceUdpPorts) {
            if (port != ROCE_V2_PORT) {
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

    /**
     * {@code fields} of the frames that match {@code displayFilter} (every frame when null), one
     * line per frame, tab-separated.
     */
    public List<String> fields(Path capture, String displayFilter, String... fields)
        throws IOException, InterruptedException {
        List<String> args = new ArrayList<>();
        if (displayFilter != null) {
            args.addAll(List.of("-Y", displayFilter));
        }
        args.addAll(List.of("-T", "fields"));
        for (String f : fields) {
            args.addAll(List.of("-e", f));
        }
        return read(capture, args.toArray(String[]::new));
    }

    /** tshark sees {@code expectedFrames} frames in {@code capture}, each InfiniBand over UDP (RoCEv2). */
    public void assertDissectedAsRoce(Path capture, int expectedFrames) throws IOException, InterruptedException {
        List<String> protocols = fields(capture, null, "frame.number", "frame.protocols");
        assertEquals(expectedFrames, protocols.size(),
            () -> capture + ": tshark saw " + protocols.size() + " frames:\n" + String.join("\n", protocols));
        for (String line : protocols) {
            assertTrue(line.contains(":udp:infiniband"), () -> capture + ": not dissected as RoCEv2: " + line);
        }
    }

    /** No frame of {@code capture} is malformed or has an expert finding of severity Error. */
    public void assertNothingMalformed(Path capture) throws IOException, InterruptedException {
        List<String> bad = fields(capture, "_ws.malformed || _ws.expert.severity >= \"Error\"",
            "frame.number", "frame.protocols", "_ws.expert.message");
        assertTrue(bad.isEmpty(), () -> capture + ": tshark flags these frames (number, protocols, messages):\n"
            + String.join("\n", bad));
    }

    /** Both checks: {@code expectedFrames} RoCEv2 frames, none malformed or in error. */
    public void assertEveryFrameIsWellFormedRoce(Path capture, int expectedFrames)
        throws IOException, InterruptedException {
        assertDissectedAsRoce(capture, expectedFrames);
        assertNothingMalformed(capture);
    }

    @Override
    public String toString() {
        return executable.toString();
    }
}
