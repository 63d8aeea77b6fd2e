package io.jroce.tools.rping;

import io.jroce.tools.Command;
import io.jroce.tools.UsageException;
import java.io.PrintStream;
import java.util.List;

/** {@code jroce rping}: see {@link RpingUsage#HELP}. */
public final class RpingCommand implements Command {
    @Override
    public String name() {
        return "rping";
    }

    @Override
    public String summary() {
        return "librdmacm's rping on a jroce device: RDMA CM connection, READ/WRITE ping-pong";
    }

    @Override
    public String usage() {
        return RpingUsage.HELP;
    }

    /** @return rping's exit status: 0, 22 for a bad option, 254 for an unknown address, 255 for a failure */
    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException, InterruptedException {
        RpingOptions.Parsed parsed = RpingOptions.parse(args, out, err);
        if (parsed.options() == null) {
            return parsed.status() & 0xFF;
        }
        RpingOptions options = parsed.options();
        return new RpingRun(options, new RpingLog(out, err, options.debug())).run();
    }
}
