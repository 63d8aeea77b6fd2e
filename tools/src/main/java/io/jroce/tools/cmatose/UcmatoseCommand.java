package io.jroce.tools.cmatose;

import io.jroce.tools.Command;
import io.jroce.tools.UsageException;
import java.io.PrintStream;
import java.util.List;

/** {@code jroce ucmatose}: see {@link CmatoseUsage#HELP}. */
public final class UcmatoseCommand implements Command {
    @Override
    public String name() {
        return "ucmatose";
    }

    @Override
    public String summary() {
        return "librdmacm's cmatose on a jroce device: several RDMA CM connections, SENDs both ways";
    }

    @Override
    public String usage() {
        return CmatoseUsage.HELP;
    }

    /** @return cmatose's return status modulo 256: 0, a REJ reason, a negative errno; 1 for a bad option */
    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException, InterruptedException {
        CmatoseOptions.Parsed parsed = CmatoseOptions.parse(args, out, err);
        if (parsed.options() == null) {
            return parsed.status();
        }
        return new CmatoseRun(parsed.options(), out, err).run();
    }
}
