package io.jroce.tools.perftest;

import io.jroce.tools.Command;
import io.jroce.tools.ExitStatus;
import io.jroce.tools.UsageException;
import io.jroce.verbs.VerbsException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** {@code jroce write_bw} and the seven other perftest twins: see {@link #usage()}. */
public final class PerftestCommand implements Command {
    private final PerftestTool tool;

    private PerftestCommand(PerftestTool tool) {
        this.tool = tool;
    }

    /**
     * The eight twins, in perftest's usual order: BW then latency for write, read, send, atomic.
     *
     * @return the commands
     */
    public static List<Command> all() {
        List<Command> all = new ArrayList<>();
        for (PerftestTool t : PerftestTool.values()) {
            all.add(new PerftestCommand(t));
        }
        return List.copyOf(all);
    }

    @Override
    public String name() {
        return tool.command();
    }

    @Override
    public String summary() {
        return tool.realTool() + " (perftest) on a jroce device: " + tool.verb().banner() + " "
            + (tool.bandwidth() ? "bandwidth" : "latency") + " against the real tool or another jroce";
    }

    @Override
    public String usage() {
        return PerftestUsage.text(tool);
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException, InterruptedException {
        PerftestOptions options;
        try {
            options = PerftestOptions.parse(tool, args);
        } catch (UsageException e) {
            ParserError.print(tool, e, out, err);
            return ExitStatus.USAGE;
        }
        if (options.flags().help()) {
            out.print(usage());
            return ExitStatus.OK;
        }
        if (options.flags().version()) {
            out.println("Version: " + PerftestComm.VERSION);
            return ExitStatus.OK;
        }
        try {
            PerftestParams params = PerftestParams.resolve(options, out, err);
            new PerftestRun(params, out, err).run();
            return ExitStatus.OK;
        } catch (PerftestException e) {
            out.flush();
            if (!e.getMessage().isEmpty()) { // empty: perftest said it on stdout already
                err.println(e.getMessage());
            }
            return ExitStatus.FAILED;
        } catch (VerbsException e) {
            out.flush();
            err.println(" " + e.getMessage());
            return ExitStatus.FAILED;
        }
    }
}
