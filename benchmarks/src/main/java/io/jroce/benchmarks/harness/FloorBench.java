package io.jroce.benchmarks.harness;

import io.jroce.tools.ExitStatus;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code jroce bench --floor}: builds udp-floor, runs the floor cases ({@link FloorCases}) and
 * prints the {@link FloorTable}, also as markdown with the commands of every case. Without a C
 * compiler it still runs jroce's side and says, before and after the table, why the floor is n/a.
 */
final class FloorBench {
    private final BenchOptions o;
    private final Optional<Path> cc;

    FloorBench(BenchOptions o, Optional<Path> cc) {
        this.o = o;
        this.cc = cc;
    }

    int run(String when, String machine, PrintStream out, PrintStream err) throws IOException, InterruptedException {
        Files.createDirectories(o.logDir());
        out.println("jroce bench --floor: " + o.repeat() + " round(s) of each case, the floor and jroce alternating;"
            + " medians and ranges; logs in " + o.logDir());
        out.println("  " + machine);
        FloorProgram floor = FloorProgram.build(o.logDir(), cc, o.timeoutSeconds());
        if (floor.available()) {
            out.println("  udp-floor: built with " + cc.orElseThrow() + " " + String.join(" ", FloorProgram.CC_FLAGS)
                + " -> " + floor.binary());
        } else {
            err.println("jroce bench: the C floor is n/a: " + floor.unavailable());
        }
        CpuPinning pinning = CpuPinning.detect(o.pin());
        out.println("  " + pinning.why());
        FloorRunner runner = new FloorRunner(o, floor, pinning, out);
        List<FloorCaseResult> results = new ArrayList<>();
        for (FloorCase c : o.selectedFloorCases()) {
            out.println(c.name() + ": " + c.title());
            results.add(runner.run(c));
        }
        FloorTable table = new FloorTable(results);
        out.println();
        out.print(table.text());
        String md = "Run of " + when + " on " + machine + "; " + o.repeat() + " alternating round(s) of each case"
            + (o.itersFactor() != 1 ? ", iterations and durations x " + o.itersFactor() : "") + "; " + pinning.why()
            + "; median (min-max) of the runs, ratio = jroce / reference, spread = max / min.\n\n"
            + table.markdown() + "\nCommands of each case (the twins also get --bind, -p, --udp-port and the server's"
            + " address):\n\n" + table.commands();
        if (o.markdown().getParent() != null) {
            Files.createDirectories(o.markdown().getParent());
        }
        Files.writeString(o.markdown(), md, StandardCharsets.UTF_8);
        out.println();
        out.println("markdown: " + o.markdown());
        if (!floor.available()) {
            err.println("jroce bench: the floor's columns are n/a: " + floor.unavailable());
        }
        List<String> failures = new ArrayList<>(runner.failures());
        if (floor.buildFailed()) {
            failures.add(0, floor.unavailable());
        }
        if (!failures.isEmpty()) {
            err.println("jroce bench: " + failures.size() + " run(s) failed:");
            failures.forEach(f -> err.println("  " + f));
            return ExitStatus.FAILED;
        }
        return ExitStatus.OK;
    }
}
