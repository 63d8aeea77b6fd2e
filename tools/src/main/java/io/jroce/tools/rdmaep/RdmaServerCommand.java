package io.jroce.tools.rdmaep;

import java.io.PrintStream;

/** {@code jroce rdma_server}: see {@link EpUsage#SERVER_HELP}. */
public final class RdmaServerCommand extends EpCommand {
    /**
     * The command; it listens on 0.0.0.0 unless -s names an address.
     */
    public RdmaServerCommand() {
        super("rdma_server", "librdmacm's rdma_server on a jroce device: rdma_create_ep, one 16-byte SEND each way",
            EpUsage.SERVER_HELP, "0.0.0.0");
    }

    @Override
    int runProgram(EpOptions options, PrintStream out, PrintStream err) throws InterruptedException {
        return new RdmaServerRun(options, out, err).run();
    }
}
