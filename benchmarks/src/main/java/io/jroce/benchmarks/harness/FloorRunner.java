package io.jroce.benchmarks.harness;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the floor cases: -r rounds per case, each round every run of the case once (the floor and
 * the jroce runs), in the case's order in odd rounds and reversed in even ones, so that a machine
 * getting busier or quieter during a round favours no side.
 */
final class FloorRunner {
    private final BenchOptions o;
    private final FloorProgram floor;
    private final ProcessPair pairs;
    private final CpuPinning pinning;
    private final PrintStream log;
    private final List<String> failures = new ArrayList<>();

    FloorRunner(BenchOptions o, FloorProgram floor, CpuPinning pinning, PrintStream log) {
        this.o = o;
        this.floor = floor;
        this.pinning = pinning;
        this.pairs = new ProcessPair(o.logDir(), o.javaOptions(), o.timeoutSeconds());
        this.log = log;
    }

    /** The runs that failed; a floor that cannot run for want of a compiler is not one of them. */
    List<String> failures() {
        return failures;
    }

    FloorCaseResult run(FloorCase c) throws IOException, InterruptedException {
        Map<String, List<Map<Figure, Double>>> figures = new LinkedHashMap<>();
        for (FloorRun run : c.runs()) {
            figures.put(run.id(), new ArrayList<>());
        }
        for (int r = 1; r <= o.repeat(); r++) {
            List<FloorRun> order = new ArrayList<>(c.runs());
            if (r % 2 == 0) {
                Collections.reverse(order);
            }
            for (FloorRun run : order) {
                Map<Figure, Double> f = runOne(c, run, "run" + r);
                if (f != null) {
                    figures.get(run.id()).add(f);
                }
            }
        }
        return new FloorCaseResult(c, figures);
    }

    private Map<Figure, Double> runOne(FloorCase c, FloorRun run, String what) throws IOException, InterruptedException {
        String label = "floor-" + c.name() + "-" + run.id() + "-" + what;
        Map<Figure, Double> f;
        String failure;
        if (run.floor()) {
            if (!floor.available()) {
                return null; // said once, before the cases
            }
            List<String> args = new ArrayList<>(run.args());
            if (run.pinned()) {
                args.addAll(pinning.floorArgs());
            }
            FloorProgram.Outcome out = floor.run(o.logDir(), label, args, o.timeoutSeconds());
            f = out.ok() ? Figure.of(out.report(), run) : null;
            failure = out.failure();
        } else {
            ProcessPair.Outcome out = pairs.run(label, o.tcpPort(), run.twinArgs(false, o), run.twinArgs(true, o),
                run.pinned() ? pinning : CpuPinning.UNPINNED);
            f = out.ok() ? Figure.of(out.report()) : null;
            failure = out.failure();
        }
        if (f == null) {
            log.println("  " + label + " FAILED: " + failure);
            failures.add(failure);
            return null;
        }
        StringBuilder sb = new StringBuilder();
        f.forEach((k, v) -> sb.append("  ").append(k.label()).append(" = ").append(ResultTable.num(v)));
        log.printf("  %-40s%s%n", label, sb);
        return f;
    }
}
