package io.jroce.tools.rdmaep;

import io.jroce.tools.Command;
import io.jroce.tools.UsageException;
import java.io.PrintStream;
import java.util.List;

/** {@code jroce rdma_server}: see {@link EpUsage#SERVER_HELP}. */
public final class RdmaServerCommand implements Command {
    @Override
    public String name() {
        return "rdma_server";
    }

    @Override
    public String summary() {
        return "librdmacm's rdma_server on a jroce device: rdma_create_ep, one 16-byte SEND each way";
    }

    @Override
    public String usage() {
        return EpUsage.SERVER_HELP;
    }

    /** @return rdma_server's status modulo 256: 0, 255 for a failed call, getaddrinfo's error; 1 for a bad option */
    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException, InterruptedException {
        EpOptions.Parsed parsed = EpOptions.parse("rdma_server", "0.0.0.0", args, out);
        if (parsed.options() == null) {
            return parsed.status();
        }
        out.println("rdma_server: start");
        int ret = new RdmaServerRun(parsed.options(), out, err).run();
        out.println("rdma_server: end " + ret);
        return ret & 0xFF;
    }
}
