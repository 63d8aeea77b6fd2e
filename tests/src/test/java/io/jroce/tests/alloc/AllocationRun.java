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
 * One perftest twin pair in this JVM (a JVM of its own, started by {@link AllocationPerOperationTest}),
 * measuring the bytes every thread allocates between the client's operations {@code first} and
 * {@code second}; prints {@code RESULT bytes=B ops=N threadsStarted=T} and one {@code THREAD name
 * bytes} line per thread that allocated, then each side's output.
 *
 * <p>Arguments: {@code first second tool option...} (the twins' options, e.g. {@code -s 64 -n
 * 120000 --progress invoker}). With {@code -Djroce.alloc.jfr=FILE} a JFR recording of the span,
 * with the allocating stacks (jdk.ObjectAllocationInNewTLAB, ...OutsideTLAB, ...Sample), is
 * written to FILE: where the bytes come from. The recording starts its own threads, so the figures
 * of such a run are not the measurement.
 */
public final class AllocationRun {
    private AllocationRun() {
    }

    public static void main(String[] args) throws Exception {
        long first = Long.parseLong(args[0]);
        long second = Long.parseLong(args[1]);
        String tool = args[2];
        String[] options = Arrays.copyOfRange(args, 3, args.length);
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
        List<TwinPair.Side> sides = TwinPair.run(tool, options);
        for (TwinPair.Side side : sides) {
            if (side.status() != 0) {
                System.out.println("FAILED status " + side.status());
            }
        }
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
        for (TwinPair.Side side : sides) {
            System.out.println("--- side\n" + side.out() + side.err());
        }
        System.out.flush();
        System.exit(0); // a twin's device thread that outlives the run must not keep this JVM up
    }

    private static Recording startRecording() {
        Recording r = new Recording();
        r.enable("jdk.ObjectAllocationInNewTLAB").withStackTrace();
        r.enable("jdk.ObjectAllocationOutsideTLAB").withStackTrace();
        r.enable("jdk.ObjectAllocationSample").withStackTrace().with("throttle", "off");
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
