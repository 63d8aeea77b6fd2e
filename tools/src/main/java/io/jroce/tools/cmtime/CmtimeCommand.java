package io.jroce.tools.cmtime;

import io.jroce.tools.Command;
import io.jroce.tools.UsageException;
import java.io.PrintStream;
import java.util.List;

/** {@code jroce cmtime}: see {@link CmtimeUsage#HELP}. */
public final class CmtimeCommand implements Command {
    @Override
    public String name() {
        return "cmtime";
    }

    @Override
    public String summary() {
        return "librdmacm's cmtime on a jroce device: RDMA CM connection set-up and tear-down, step by step, timed";
    }

    @Override
    public String usage() {
        return CmtimeUsage.HELP;
    }

    /** @return cmtime's exit status: the client's last call's (0 when the steps ran), 1 for a bad option */
    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException, InterruptedException {
        CmtimeOptions.Parsed parsed = CmtimeOptions.parse(args, out, err);
        if (parsed.options() == null) {
            return parsed.status();
        }
        CmtimeOptions o = parsed.options();
        return o.isServer() ? new CmtimeServer(o, out, err).run() : new CmtimeClient(o, out, err).run() & 0xFF;
    }
}
