package io.jroce.tests.alloc;

import io.jroce.tests.perftest.TwinPair;
import io.jroce.tools.perftest.SteadyStateMarks;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import jdk.jfr.Recording;

/**
 * A perftest twin pair in this JVM (a JVM of its own, started by {@link AllocationPerOperationTest}),
 * run twice: {@code warmup} iterations for the JIT compiler (a C2 compile request resolves the
 * string constants of the method's class on the requesting thread: a String and its bytes for each,
 * once), then {@code second} plus a few iterations, measuring the bytes every thread allocates
 * between the client's operations {@code first} and {@code second}. Prints {@code RESULT bytes=B
 * ops=N threadsStarted=T}, one {@code THREAD name bytes} line per thread that allocated, then each
 * side's output.
 *
 * <p>Arguments: {@code warmup first second tool option...} (the twins' options without -n, e.g.
 * {@code -s 64 --progress invoker}). With {@code -Djroce.alloc.jfr=FILE} a JFR recording of the span,
 * with the allocating stacks (jdk.ObjectAllocationInNewTLAB, ...OutsideTLAB, ...Sample), is
 * written to FILE: where the bytes come from. The recording starts its own threads, so the figures
 * of such a run are not the measurement.
 */
public final class AllocationRun {
    /** Operations after the second mark. */
    private static final long TAIL = 1_000;

    private AllocationRun() {
    }

    public static void main(String[] args) throws Exception {
        long warmup = Long.parseLong(args[0]);
        long first = Long.parseLong(args[1]);
        long second = Long.parseLong(args[2]);
        String tool = args[3];
        String[] options = Arrays.copyOfRange(args, 4, args.length);
        if (warmup > 0) {
            report(TwinPair.run(tool, withIterations(options, warmup)), "warm-up");
        }
        String jfr = System.getProperty("jroce.alloc.jfr");
        ThreadAllocations allocations = new ThreadAllocations();
        ThreadAllocations.Span[] span = new ThreadAllocations.Span[1];
        Recording[] recording = new Recording[1];
        SteadyStateMarks.install(first, second, mark -> {
            if (mark == 0) {
                if (jfr != null) {
                    recording[0] = startRecording();
                }
                allocations.first();
            } else {
                span[0] = allocations.second();
                if (recording[0] != null) {
                    stopRecording(recording[0], Path.of(jfr));
                }
            }
        });
        // The last operations are not measured: the second mark is taken in the steady state too.
        List<TwinPair.Side> sides = TwinPair.run(tool, withIterations(options, second + TAIL));
        report(sides, "measured run");
        if (span[0] == null) {
            System.out.println("FAILED the client's loop did not pass both marks");
        } else {
            System.out.println("RESULT bytes=" + span[0].bytes() + " ops=" + (second - first) + " threadsStarted="
                + span[0].threadsStarted());
            List<String> lines = new ArrayList<>();
            for (Map.Entry<String, Long> e : span[0].byThread().entrySet()) {
                if (e.getValue() != 0) {
                    lines.add("THREAD " + e.getKey().replace(' ', '_') + " " + e.getValue());
                }
            }
            lines.forEach(System.out::println);
        }
        System.out.flush();
        System.exit(0); // a twin's device thread that outlives the run must not keep this JVM up
    }

    private static String[] withIterations(String[] options, long iterations) {
        String[] all = Arrays.copyOf(options, options.length + 2);
        all[options.length] = "-n";
        all[options.length + 1] = Long.toString(iterations);
        return all;
    }

    /** A side that failed prints FAILED and its output; the others print nothing. */
    private static void report(List<TwinPair.Side> sides, String run) {
        for (TwinPair.Side side : sides) {
            if (side.status() != 0) {
                System.out.println("FAILED " + run + ": status " + side.status() + "\n" + side.out() + side.err());
            }
        }
    }

    private static Recording startRecording() {
        Recording r = new Recording();
        r.enable("jdk.ObjectAllocationInNewTLAB").withStackTrace();
        r.enable("jdk.ObjectAllocationOutsideTLAB").withStackTrace();
        r.enable("jdk.ObjectAllocationSample").withStackTrace().with("throttle", "off");
        r.enable("jdk.Deoptimization").withStackTrace();
        r.start();
        return r;
    }

    private static void stopRecording(Recording r, Path file) {
        try {
            r.stop();
            r.dump(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
