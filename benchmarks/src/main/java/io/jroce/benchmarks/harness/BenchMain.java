package io.jroce.benchmarks.harness;

import io.jroce.tools.Command;
import io.jroce.tools.Commands;
import io.jroce.tools.Main;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code jroce} command line with the benchmark commands added ({@code bench}, {@code udp_bw},
 * {@code udp_lat}): what {@code ./jroce} runs for them, and what the harness runs both sides of
 * each case with. Every command writes {@link ProcessStats} at exit when {@code JROCE_PROCESS_STATS}
 * names a file.
 */
public final class BenchMain {
    private BenchMain() {
    }

    public static void main(String[] args) {
        ProcessStats stats = ProcessStats.startFromEnvironment(); // JROCE_PROCESS_STATS=FILE: CPU, allocation, memory
        int status = Main.launch(args, commands());
        ProcessStats.finish(stats, args, status);
        System.exit(status);
    }

    /** The product's commands, then the benchmark commands. */
    static List<Command> commands() {
        List<Command> all = new ArrayList<>(Commands.all());
        all.addAll(BenchCommands.all());
        return List.copyOf(all);
    }
}
