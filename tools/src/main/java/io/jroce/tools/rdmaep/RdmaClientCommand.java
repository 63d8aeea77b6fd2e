package io.jroce.tools.rdmaep;

import io.jroce.tools.Command;
import io.jroce.tools.UsageException;
import java.io.PrintStream;
import java.util.List;

/** {@code jroce rdma_client}: see {@link EpUsage#CLIENT_HELP}. */
public final class RdmaClientCommand implements Command {
    @Override
    public String name() {
        return "rdma_client";
    }

    @Override
    public String summary() {
        return "librdmacm's rdma_client on a jroce device: rdma_create_ep, one 16-byte SEND each way";
    }

    @Override
    public String usage() {
        return EpUsage.CLIENT_HELP;
    }

    /** @return rdma_client's status modulo 256: 0, 255 for a failed call, getaddrinfo's error; 1 for a bad option */
    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException, InterruptedException {
        EpOptions.Parsed parsed = EpOptions.parse("rdma_client", "127.0.0.1", args, out);
        if (parsed.options() == null) {
            return parsed.status();
        }
        out.println("rdma_client: start");
        int ret = new RdmaClientRun(parsed.options(), out, err).run();
        out.println("rdma_client: end " + ret);
        return ret & 0xFF;
    }
}
