package io.jroce.tools.mckey;

import io.jroce.tools.Command;
import io.jroce.tools.UsageException;
import java.io.PrintStream;
import java.util.List;

/** {@code jroce mckey}: see {@link MckeyUsage#HELP}. */
public final class MckeyCommand implements Command {
    @Override
    public String name() {
        return "mckey";
    }

    @Override
    public String summary() {
        return "librdmacm's mckey on a jroce device: UD QPs join an IP multicast group through the RDMA CM, datagrams to it";
    }

    @Override
    public String usage() {
        return MckeyUsage.HELP;
    }

    /** @return mckey's exit status: its "return status" (low byte), 1 for a bad option */
    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException, InterruptedException {
        MckeyOptions.Parsed parsed = MckeyOptions.parse(args, out, err);
        if (parsed.options() == null) {
            return parsed.status();
        }
        return new MckeyRun(parsed.options(), out, err).run();
    }
}
