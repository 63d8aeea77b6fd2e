package io.jroce.benchmarks.harness;

import io.jroce.tools.Command;
import io.jroce.tools.ExitStatus;
import io.jroce.tools.UsageException;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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

            Starts N fresh JVMs per progress mode (default 10, modes alternating), each opening two
            devices on 127.0.0.1 and 127.0.0.2 (UDP port PORT, default 14795), connecting an RC QP
            pair with QpConnector's defaults (ACK timeout 67.1 ms) and posting one signaled 64 B
            RDMA WRITE. Prints, per mode, the median and range of: the JVM's start to main, the two
            opens, the devices open to the post (resources, connection), the post to its completion,
            and the devices open to the first completion (target: median under 20 ms, maximum
            under the ACK timeout), and how many runs retransmitted (the first WRITE taken for lost).
            --no-warm-up runs the JVMs with -Djroce.warmUp=false (no warm-up of the data path at the
            first open), for comparison.
            """;
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException, InterruptedException {
        int runs = 10;
        String modes = "both";
        int port = 14795;
        boolean warmUp = true;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--runs" -> runs = positive(a, value(args, ++i, a));
                case "--mode" -> modes = value(args, ++i, a).toLowerCase(Locale.ROOT);
                case "--port" -> port = positive(a, value(args, ++i, a));
                case "--no-warm-up" -> warmUp = false;
                default -> throw new UsageException("unknown argument: " + a);
            }
        }
        List<String> order = switch (modes) {
            case "both" -> List.of("EVENT_LOOP", "INVOKER");
            case "event_loop" -> List.of("EVENT_LOOP");
            case "invoker" -> List.of("INVOKER");
            default -> throw new UsageException("--mode must be both, event_loop or invoker: " + modes);
        };
        Map<String, List<ColdStartResult>> results = new LinkedHashMap<>();
        for (int run = 1; run <= runs; run++) {
            for (String mode : order) {
                ColdStartResult r;
                try {
                    r = launch(mode, port, warmUp);
                } catch (IOException | IllegalStateException e) {
                    err.println("jroce cold_start: run " + run + " (" + mode + ") failed: " + e.getMessage());
                    return ExitStatus.FAILED;
                }
                out.println(r.line());
                results.computeIfAbsent(mode, m -> new ArrayList<>()).add(r);
            }
        }
        out.println();
        results.forEach((mode, rs) -> report(mode, rs, out));
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
        long retransmitting = rs.stream().filter(r -> r.retransmitted() > 0).count();
        long failed = rs.stream().filter(r -> !r.ok()).count();
        out.printf(Locale.ROOT, "  runs that retransmitted: %d of %d; runs that failed: %d%n", retransmitting, rs.size(), failed);
        out.printf(Locale.ROOT, "  devices open to first completion: median under %.0f ms: %s; maximum under the ACK timeout"
            + " %.1f ms: %s%n", TARGET_MEDIAN_MS, met(ready.median() < TARGET_MEDIAN_MS), ACK_TIMEOUT_MS,
            met(ready.max() < ACK_TIMEOUT_MS));
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

    /** One probe in a fresh JVM: this JVM's java and class path. */
    private static ColdStartResult launch(String mode, int port, boolean warmUp) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Djroce.warmUp=" + warmUp, "-cp", System.getProperty("java.class.path"),
            ColdStartProbe.class.getName(), mode, Integer.toString(port)).redirectErrorStream(true).start();
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

    private static String value(List<String> args, int i, String option) throws UsageException {
        if (i >= args.size()) {
            throw new UsageException(option + " needs a value");
        }
        return args.get(i);
    }

    private static int positive(String option, String value) throws UsageException {
        try {
            int v = Integer.parseInt(value);
            if (v > 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new UsageException(option + " must be a positive number: " + value);
    }
}
