package io.jroce.tools.pingpong;

import io.jroce.tools.ArgCursor;
import io.jroce.tools.Command;
import io.jroce.tools.ExitStatus;
import io.jroce.tools.UsageException;
import io.jroce.verbs.VerbsException;
import java.io.PrintStream;

/** {@code jroce rc_pingpong}: see {@link PingpongOptions#USAGE}. */
public final class RcPingpongCommand implements Command {
    @Override
    public String name() {
        return "rc_pingpong";
    }

    @Override
    public String summary() {
        return "ibv_rc_pingpong on a jroce device: RC SEND ping-pong with the real tool or another jroce";
    }

    @Override
    public String usage() {
        return PingpongOptions.USAGE;
    }

    @Override
    public int run(ArgCursor args, PrintStream out, PrintStream err) throws UsageException, InterruptedException {
        PingpongOptions options = PingpongOptions.parse(args);
        String refusal = Refusals.check(options.flags());
        if (refusal != null) {
            err.println("jroce rc_pingpong: error: " + refusal);
            return ExitStatus.FAILED;
        }
        try {
            new PingpongRun(options, out).run();
            return ExitStatus.OK;
        } catch (PingpongException e) {
            out.flush();
            for (String line : e.getMessage().split("\n")) {
                err.println("jroce rc_pingpong: error: " + line);
            }
            return ExitStatus.FAILED;
        } catch (VerbsException e) {
            out.flush();
            err.println("jroce rc_pingpong: error: " + e.getMessage());
            return ExitStatus.FAILED;
        }
    }
}
