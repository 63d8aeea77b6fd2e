package io.jroce.tools.udaddy;

import io.jroce.tools.Command;
import io.jroce.tools.UsageException;
import java.io.PrintStream;
import java.util.List;

/** {@code jroce udaddy}: see {@link UdaddyUsage#HELP}. */
public final class UdaddyCommand implements Command {
    @Override
    public String name() {
        return "udaddy";
    }

    @Override
    public String summary() {
        return "librdmacm's udaddy on a jroce device: UD QPs resolved through the RDMA CM (SIDR), datagrams each way";
    }

    @Override
    public String usage() {
        return UdaddyUsage.HELP;
    }

    /** @return udaddy's exit status: its "return status" (low byte), 1 for a bad option */
    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException, InterruptedException {
        UdaddyOptions.Parsed parsed = UdaddyOptions.parse(args, out, err);
        if (parsed.options() == null) {
            return parsed.status();
        }
        return new UdaddyRun(parsed.options(), out, err).run();
    }
}
