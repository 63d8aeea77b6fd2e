package io.jroce.benchmarks.harness;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * udp-floor, compiled for this machine: its C source travels in the benchmarks jar (from
 * benchmarks/src/main/c) and is built with the system's {@code cc -O2 -pthread} into the log
 * directory, so every sitting measures the floor with the compiler and kernel it runs on. Without a
 * {@code cc} on the PATH the floor is unavailable: its figures are n/a, and {@link #unavailable()}
 * says why.
 */
final class FloorProgram {
    /** Where the source is on the class path. */
    static final String SOURCE = "/udp-floor/udp-floor.c";
    static final List<String> CC_FLAGS = List.of("-O2", "-pthread");

    /** What one run left: the report, or why there is none. */
    record Outcome(FloorReport report, String failure) {
        boolean ok() {
            return failure == null;
        }
    }

    private final Path binary;
    private final String unavailable;
    private final boolean buildFailed;

    private FloorProgram(Path binary, String unavailable, boolean buildFailed) {
        this.binary = binary;
        this.unavailable = unavailable;
        this.buildFailed = buildFailed;
    }

    /** The first executable {@code cc} on the PATH. */
    static Optional<Path> systemCc() {
        return Executables.onPath("cc");
    }

    /** Writes the source into {@code dir} and compiles it there with {@code cc}, if there is one. */
    static FloorProgram build(Path dir, Optional<Path> cc, long timeoutSeconds) throws IOException, InterruptedException {
        if (cc.isEmpty()) {
            return new FloorProgram(null, "no C compiler: `cc` is not on the PATH, so the C floor (udp-floor) "
                + "cannot be built and its columns say n/a; install one (Debian: apt-get install gcc libc6-dev)", false);
        }
        Files.createDirectories(dir);
        Path source = dir.resolve("udp-floor.c");
        try (InputStream in = FloorProgram.class.getResourceAsStream(SOURCE)) {
            if (in == null) {
                return new FloorProgram(null, "udp-floor.c is not on the class path at " + SOURCE, true);
            }
            Files.write(source, in.readAllBytes());
        }
        Path binary = dir.resolve("udp-floor");
        List<String> cmd = new ArrayList<>();
        cmd.add(cc.get().toString());
        cmd.addAll(CC_FLAGS);
        cmd.addAll(List.of("-o", binary.toString(), source.toString()));
        Path log = dir.resolve("udp-floor-cc.log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return new FloorProgram(null, String.join(" ", cmd) + ": timed out", true);
        }
        if (p.exitValue() != 0 || !Files.isExecutable(binary)) {
            return new FloorProgram(null, String.join(" ", cmd) + " failed (exit status " + p.exitValue() + "): "
                + Files.readString(log, StandardCharsets.UTF_8).strip(), true);
        }
        return new FloorProgram(binary, null, false);
    }

    boolean available() {
        return binary != null;
    }

    /** Why the floor cannot run, or null. */
    String unavailable() {
        return unavailable;
    }

    /** True when a compiler was there but the build failed: a failure of the sitting, not a missing tool. */
    boolean buildFailed() {
        return buildFailed;
    }

    Path binary() {
        return binary;
    }

    /** Runs udp-floor with {@code args}; its output goes to {@code logDir/label.out} and {@code .err}. */
    Outcome run(Path logDir, String label, List<String> args, long timeoutSeconds)
        throws IOException, InterruptedException {
        if (!available()) {
            return new Outcome(null, label + ": " + unavailable);
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(binary.toString());
        cmd.addAll(args);
        Path out = logDir.resolve(label + ".out");
        Files.writeString(logDir.resolve(label + ".cmd"), String.join(" ", cmd) + "\n");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile())
            .redirectError(logDir.resolve(label + ".err").toFile()).start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            // pp forks its echo side, which spins until its last datagram: end it too.
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
            return new Outcome(null, label + ": timed out after " + timeoutSeconds + " s");
        }
        Optional<FloorReport> report = FloorReport.parse(Files.readString(out, StandardCharsets.UTF_8));
        if (p.exitValue() != 0 || report.isEmpty()) {
            return new Outcome(null, label + ": exit status " + p.exitValue() + ", no udp-floor figures in " + out);
        }
        return new Outcome(report.get(), null);
    }
}
