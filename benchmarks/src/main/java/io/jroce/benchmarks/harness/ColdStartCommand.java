package io.jroce.benchmarks.harness;

import static io.jroce.tools.getopt.OptionSpec.NO_SHORT;
import static io.jroce.tools.getopt.OptionSpec.flag;
import static io.jroce.tools.getopt.OptionSpec.value;

import io.jroce.tools.Command;
import io.jroce.tools.ExitStatus;
import io.jroce.tools.UsageException;
import io.jroce.tools.getopt.Getopt;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * {@code jroce cold_start}: the first operation of a cold JVM, measured over fresh JVMs (a
 * benchmark run on purpose, never a timed test). Each run starts a {@link ColdStartProbe} in a new
 * JVM with this one's {@code java} and class path; the modes alternate run by run.
 */
final class ColdStartCommand implements Command {
    /** The default ACK timeout (QpConnector's timeout 14: 4.096 us * 2^14), which the first operation must stay under. */
    static final double ACK_TIMEOUT_MS = (4096L << 14) / 1e6;
    /** The median the issue asks for, from the devices open to the first completion. */
    static final double TARGET_MEDIAN_MS = 20;

    @Override
    public String name() {
        return "cold_start";
    }

    @Override
    public String summary() {
        return "benchmark: the first RDMA WRITE of a cold JVM, over fresh JVMs";
    }

    @Override
    public String usage() {
        return """
            usage: jroce cold_start [--runs N] [--mode both|event_loop|invoker] [--port PORT] [--no-warm-up]
                                    [--jmx] [--cds]

            Starts N fresh JVMs per progress mode (default 10, modes alternating), each opening two
            devices on 127.0.0.1 and 127.0.0.2 (UDP port PORT, default 14795), connecting an RC QP
            pair with QpConnector's defaults (ACK timeout 67.1 ms) and posting one signaled 64 B
            RDMA WRITE. Prints, per mode, the median and range of: the JVM's start to main, the two
            opens, the devices open to the post (resources, connection), the post to its completion,
            and the devices open to the first completion (target: median under 20 ms, maximum
            under the ACK timeout), the same from the first open() call (the open included), and how
            many runs retransmitted (the first WRITE taken for lost); the load average before and after.
            --no-warm-up runs the JVMs with -Djroce.warmUp=false (no warm-up of the data path at the
            first open), for comparison.
            --jmx opens the devices with their MBeans, as a program gets them unless it turns JMX off.
            --cds adds each mode started from a dynamic class-data-sharing archive of its own, which a
            training JVM per mode writes first (-XX:ArchiveClassesAtExit), alternating with the plain runs.
            """;
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException, InterruptedException {
        Options o = Options.parse(args);
        int runs = o.runs;
        String modes = o.modes;
        int port = o.port;
        boolean warmUp = o.warmUp;
        boolean jmx = o.jmx;
        boolean cds = o.cds;
        List<String> order = switch (modes) {
            case "both" -> List.of("EVENT_LOOP", "INVOKER");
            case "event_loop" -> List.of("EVENT_LOOP");
            case "invoker" -> List.of("INVOKER");
            default -> throw new UsageException("--mode must be both, event_loop or invoker: " + modes);
        };
        String loadBefore = loadAverage();
        Map<String, List<String>> archives = new LinkedHashMap<>();
        try {
            for (String mode : order) {
                archives.put(mode, cds ? train(mode, port, warmUp, jmx) : null);
            }
        } catch (IOException | IllegalStateException e) {
            err.println("jroce cold_start: " + e.getMessage());
            return ExitStatus.FAILED;
        }
        Map<String, List<ColdStartResult>> results = new LinkedHashMap<>();
        for (int run = 1; run <= runs; run++) {
            for (String mode : order) {
                for (List<String> archive : cds ? List.of(List.<String>of(), archives.get(mode)) : List.of(List.<String>of())) {
                    String variant = mode + (archive.isEmpty() ? "" : ", CDS");
                    ColdStartResult r;
                    try {
                        r = launch(mode, port, warmUp, jmx, archive);
                    } catch (IOException | IllegalStateException e) {
                        err.println("jroce cold_start: run " + run + " (" + variant + ") failed: " + e.getMessage());
                        return ExitStatus.FAILED;
                    }
                    out.println(r.line() + (archive.isEmpty() ? "" : " cds"));
                    results.computeIfAbsent(variant, m -> new ArrayList<>()).add(r);
                }
            }
        }
        out.println();
        out.println("load average (1, 5, 15 min) before: " + loadBefore + "; after: " + loadAverage()
            + (jmx ? "; devices with MBeans" : "; devices without MBeans") + (warmUp ? "" : "; no warm-up"));
        out.println();
        results.forEach((variant, rs) -> report(variant, rs, out));
        return ExitStatus.OK;
    }

    /** The summary of one mode's runs, in milliseconds. */
    static void report(String mode, List<ColdStartResult> rs, PrintStream out) {
        out.printf(Locale.ROOT, "%s, %d fresh JVMs: median (min-max) [ms]%n", mode, rs.size());
        row(out, "JVM start to main", rs, r -> r.jvmMs());
        row(out, "open both devices", rs, ColdStartResult::openMs);
        row(out, "devices open to post (resources, connection)", rs, ColdStartResult::setupMs);
        Summary first = row(out, "post to completion", rs, ColdStartResult::firstOpMs);
        Summary ready = row(out, "devices open to first completion", rs, ColdStartResult::readyToCompletionMs);
        Summary fromCall = row(out, "open() called to first completion", rs, ColdStartResult::openCallToCompletionMs);
        long retransmitting = rs.stream().filter(r -> r.retransmitted() > 0).count();
        long failed = rs.stream().filter(r -> !r.ok()).count();
        out.printf(Locale.ROOT, "  runs that retransmitted: %d of %d; runs that failed: %d%n", retransmitting, rs.size(), failed);
        out.printf(Locale.ROOT, "  devices open to first completion: median under %.0f ms: %s; maximum under the ACK timeout"
            + " %.1f ms: %s%n", TARGET_MEDIAN_MS, met(ready.median() < TARGET_MEDIAN_MS), ACK_TIMEOUT_MS,
            met(ready.max() < ACK_TIMEOUT_MS));
        out.printf(Locale.ROOT, "  open() called to first completion: median under %.0f ms: %s; maximum under the ACK"
            + " timeout: %s%n", TARGET_MEDIAN_MS, met(fromCall.median() < TARGET_MEDIAN_MS), met(fromCall.max() < ACK_TIMEOUT_MS));
        out.printf(Locale.ROOT, "  post to completion (what the ACK timer races): maximum under %.1f ms: %s%n%n",
            ACK_TIMEOUT_MS, met(first.max() < ACK_TIMEOUT_MS));
    }

    private static String met(boolean met) {
        return met ? "met" : "not met";
    }

    private static Summary row(PrintStream out, String what, List<ColdStartResult> rs, ToDoubleFunction<ColdStartResult> f) {
        Summary s = Summary.of(rs.stream().map(r -> f.applyAsDouble(r)).toList());
        out.printf(Locale.ROOT, "  %-48s %9.2f (%.2f-%.2f)%n", what, s.median(), s.min(), s.max());
        return s;
    }

    /**
     * The training run of a mode's CDS archive: one probe writing the classes it loaded at exit.
     *
     * @return the options that start a JVM from the archive
     */
    private static List<String> train(String mode, int port, boolean warmUp, boolean jmx)
        throws IOException, InterruptedException {
        Path archive = Files.createTempFile("jroce-cold-start-" + mode + "-", ".jsa");
        archive.toFile().deleteOnExit();
        Files.delete(archive); // the JVM writes it anew
        launch(mode, port, warmUp, jmx, List.of("-XX:ArchiveClassesAtExit=" + archive, "-Xlog:cds=off,cds+dynamic=off"));
        if (!Files.exists(archive)) {
            throw new IllegalStateException("the CDS training run of " + mode + " wrote no archive");
        }
        return List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off,cds+dynamic=off");
    }

    /** One probe in a fresh JVM: this JVM's java and class path. */
    private static ColdStartResult launch(String mode, int port, boolean warmUp, boolean jmx, List<String> jvmOptions)
        throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Djroce.warmUp=" + warmUp);
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), ColdStartProbe.class.getName(), mode,
            Integer.toString(port)));
        if (jmx) {
            cmd.add("jmx");
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException("the probe did not end within 2 minutes");
        }
        ColdStartResult r = output.lines().map(ColdStartResult::parse).filter(x -> x != null).findFirst().orElse(null);
        if (r == null) {
            throw new IllegalStateException("the probe printed no result (status " + p.exitValue() + "):\n" + output);
        }
        return r;
    }

    /** The first three fields of /proc/loadavg, or "n/a". */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg"), StandardCharsets.US_ASCII).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "n/a";
        }
    }

    /** The command line, read by the tools' {@link Getopt} as every other command's. */
    private static final class Options {
        private int runs = 10;
        private String modes = "both";
        private int port = 14795;
        private boolean warmUp = true;
        private boolean jmx;
        private boolean cds;

        static Options parse(List<String> args) throws UsageException {
            Options o = new Options();
            new Getopt(List.of(
                value(NO_SHORT, "runs", (s, v) -> o.runs = Getopt.integer(s, v, 1, Integer.MAX_VALUE)),
                value(NO_SHORT, "mode", (s, v) -> o.modes = v.toLowerCase(Locale.ROOT)),
                value(NO_SHORT, "port", (s, v) -> o.port = Getopt.integer(s, v, 1, 0xFFFF)),
                flag(NO_SHORT, "no-warm-up", () -> o.warmUp = false),
                flag(NO_SHORT, "jmx", () -> o.jmx = true),
                flag(NO_SHORT, "cds", () -> o.cds = true)), (s, operand) -> {
                    throw Getopt.unknown(operand);
                }).parse(args);
            return o;
        }
    }
}
