package io.jroce.benchmarks.harness;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the cases: per case one calibration run of each side (5 iterations), then -r runs of each
 * side, alternating which goes first, so that a machine getting busier or quieter favours neither.
 */
final class BenchRunner {
    private final BenchOptions o;
    private final ProcessPair pairs;
    private final PrintStream log;
    private final List<String> failures = new ArrayList<>();

    BenchRunner(BenchOptions o, PrintStream log) {
        this.o = o;
        this.pairs = new ProcessPair(o.logDir(), o.javaOptions(), o.timeoutSeconds());
        this.log = log;
    }

    List<String> failures() {
        return failures;
    }

    CaseResult run(BenchCase c) throws IOException, InterruptedException {
        ProcessPair.Outcome jroceCal = runOne(c, true, "cal", BenchCase.CALIBRATION_ITERS);
        ProcessPair.Outcome baseCal = runOne(c, false, "cal", BenchCase.CALIBRATION_ITERS);
        List<ProcessPair.Outcome> jroce = new ArrayList<>();
        List<ProcessPair.Outcome> base = new ArrayList<>();
        for (int r = 1; r <= o.repeat(); r++) {
            boolean jroceFirst = r % 2 == 1;
            for (int k = 0; k < 2; k++) {
                boolean isJroce = (k == 0) == jroceFirst;
                ProcessPair.Outcome out = runOne(c, isJroce, "run" + r, c.iters());
                (isJroce ? jroce : base).add(out);
            }
        }
        return new CaseResult(c, summarize(c, jroce, jroceCal), summarize(c, base, baseCal));
    }

    private ProcessPair.Outcome runOne(BenchCase c, boolean jroce, String what, int iters)
        throws IOException, InterruptedException {
        String label = c.name() + "-" + (jroce ? "jroce" : "udp") + "-" + what;
        ProcessPair.Outcome out = pairs.run(label, o.tcpPort(), c.args(jroce, false, o, iters), c.args(jroce, true, o, iters));
        if (out.ok()) {
            log.printf("  %-28s %s = %.3f%n", label, c.metric().label(), c.metric().of(out.report()));
        } else {
            log.println("  " + label + " FAILED: " + out.failure());
            failures.add(out.failure());
        }
        return out;
    }

    private static SideResult summarize(BenchCase c, List<ProcessPair.Outcome> runs, ProcessPair.Outcome cal) {
        List<Double> metric = new ArrayList<>();
        List<Double> cpuPerGb = new ArrayList<>();
        List<Double> allocPerOp = new ArrayList<>();
        List<Double> rss = new ArrayList<>();
        List<Double> direct = new ArrayList<>();
        boolean marginal = cal.ok();
        int failed = 0;
        for (ProcessPair.Outcome r : runs) {
            if (!r.ok()) {
                failed++;
                continue;
            }
            metric.add(c.metric().of(r.report()));
            double ops = r.report().iterations().orElseThrow();
            double cpu = cpu(r);
            double alloc = alloc(r);
            if (marginal) {
                ops -= cal.report().iterations().orElseThrow();
                cpu -= cpu(cal);
                alloc -= alloc(cal);
            }
            cpuPerGb.add(cpu / (ops * c.bytesPerOp() / 1e9));
            allocPerOp.add(alloc / ops);
            rss.add(r.server().stats().rssPeakBytes());
            direct.add(r.server().stats().directPeakBytes());
        }
        return new SideResult(SideResult.median(metric), SideResult.median(cpuPerGb), SideResult.median(allocPerOp),
            SideResult.median(rss), SideResult.median(direct), runs.size() - failed, failed, marginal);
    }

    private static double cpu(ProcessPair.Outcome r) {
        return r.server().stats().cpuSeconds() + r.client().stats().cpuSeconds();
    }

    private static double alloc(ProcessPair.Outcome r) {
        return r.server().stats().allocatedBytes() + r.client().stats().allocatedBytes();
    }
}
