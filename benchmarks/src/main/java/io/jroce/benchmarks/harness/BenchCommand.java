package io.jroce.benchmarks.harness;

import io.jroce.tools.Command;
import io.jroce.tools.ExitStatus;
import io.jroce.tools.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/** {@code jroce bench}: see {@link BenchOptions#USAGE}. */
final class BenchCommand implements Command {
    @Override
    public String name() {
        return "bench";
    }

    @Override
    public String summary() {
        return "benchmark harness: perftest twins against raw-UDP baselines, or with --floor against the C floor"
            + " of the kernel's UDP path (docs/benchmarks.md)";
    }

    @Override
    public String usage() {
        return BenchOptions.USAGE;
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException, InterruptedException {
        BenchOptions o = BenchOptions.parse(args);
        String when = LocalDateTime.now().format(DateTimeFormatter.ISO_LOCAL_DATE_TIME).substring(0, 16);
        String machine = MachineInfo.describe();
        try {
            if (o.floor()) {
                return new FloorBench(o, FloorProgram.systemCc()).run(when, machine, out, err);
            }
            Files.createDirectories(o.logDir());
            out.println("jroce bench: " + o.repeat() + " run(s) of each side, medians; logs in " + o.logDir());
            out.println("  " + machine);
            BenchRunner runner = new BenchRunner(o, out);
            List<CaseResult> results = new ArrayList<>();
            for (BenchCase c : o.selectedCases()) {
                out.println(c.name() + ": " + c.title() + " (-n " + c.iters() + ")");
                results.add(runner.run(c));
            }
            ResultTable table = new ResultTable(results);
            out.println();
            out.print(table.text());
            String md = "Run of " + when + " on " + machine + "; " + o.repeat() + " run(s) of each side, medians"
                + (o.itersFactor() != 1 ? ", iterations x " + o.itersFactor() : "") + ".\n\n" + table.markdown();
            if (o.markdown().getParent() != null) {
                Files.createDirectories(o.markdown().getParent());
            }
            Files.writeString(o.markdown(), md, StandardCharsets.UTF_8);
            out.println();
            out.println("markdown: " + o.markdown());
            if (!runner.failures().isEmpty()) {
                err.println("jroce bench: " + runner.failures().size() + " run(s) failed:");
                runner.failures().forEach(f -> err.println("  " + f));
                return ExitStatus.FAILED;
            }
            return ExitStatus.OK;
        } catch (IOException e) {
            err.println("jroce bench: error: " + e.getMessage());
            return ExitStatus.FAILED;
        }
    }
}
