package io.jroce.tools.pingpong;

import io.jroce.tools.Command;
import io.jroce.tools.ExitStatus;
import io.jroce.tools.UnknownDeviceException;
import io.jroce.tools.UsageException;
import io.jroce.verbs.VerbsException;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code jroce rc_pingpong}, {@code uc_pingpong}, {@code ud_pingpong} and {@code srq_pingpong}: see
 * {@link PingpongOptions#usage}.
 */
public final class PingpongCommand implements Command {
    private static final String[] SUMMARIES = {
        "ibv_rc_pingpong on a jroce device: RC SEND ping-pong with the real tool or another jroce",
        "ibv_uc_pingpong on a jroce device: UC SEND ping-pong with the real tool or another jroce",
        "ibv_ud_pingpong on a jroce device: UD SEND ping-pong with the real tool or another jroce",
        "ibv_srq_pingpong on a jroce device: RC SEND ping-pong on -q QPs (16) sharing one SRQ",
    };

    private final PingpongTool tool;

    private PingpongCommand(PingpongTool tool) {
        this.tool = tool;
    }

    /**
     * The four twins, in rdma-core's order of importance: rc, uc, ud, srq.
     *
     * @return the commands
     */
    public static List<Command> all() {
        return List.of(new PingpongCommand(PingpongTool.RC), new PingpongCommand(PingpongTool.UC),
            new PingpongCommand(PingpongTool.UD), new PingpongCommand(PingpongTool.SRQ));
    }

    @Override
    public String name() {
        return tool.command();
    }

    @Override
    public String summary() {
        return SUMMARIES[tool.ordinal()];
    }

    @Override
    public String usage() {
        return PingpongOptions.usage(tool);
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException, InterruptedException {
        String name = "jroce " + tool.command() + ": ";
        String prefix = name + "error: ";
        PingpongOptions options;
        try {
            options = PingpongOptions.parse(tool, args);
        } catch (UnknownDeviceException e) {
            // what ibv_*_pingpong prints (libibverbs/examples/rc_pingpong.c), then the devices that exist
            err.println(prefix + "IB device " + e.deviceName() + " not found");
            err.println(prefix + e.knownDevices());
            return ExitStatus.FAILED;
        }
        String refusal = OptionChecks.check(options);
        if (refusal != null) {
            err.println(prefix + refusal);
            return ExitStatus.FAILED;
        }
        try {
            new PingpongRun(options, out).run();
            return ExitStatus.OK;
        } catch (PingpongException e) {
            out.flush();
            for (String line : e.getMessage().split("\n")) {
                err.println(prefix + line);
            }
            for (String line : e.report()) {
                err.println(name + line);
            }
            return ExitStatus.FAILED;
        } catch (VerbsException e) {
            out.flush();
            err.println(prefix + e.getMessage());
            return ExitStatus.FAILED;
        }
    }
}
