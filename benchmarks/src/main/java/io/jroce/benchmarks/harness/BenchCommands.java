package io.jroce.benchmarks.harness;

import io.jroce.tools.Command;
import java.util.List;

/** The benchmark commands, for {@code Commands}: the two raw-UDP baselines and the harness. */
public final class BenchCommands {
    private BenchCommands() {
    }

    public static List<Command> all() {
        return List.of(new BaselineCommand(false), new BaselineCommand(true), new BenchCommand(), new ColdStartCommand());
    }
}
