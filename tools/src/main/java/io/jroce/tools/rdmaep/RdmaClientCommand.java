package io.jroce.tools.rdmaep;

import java.io.PrintStream;

/** {@code jroce rdma_client}: see {@link EpUsage#CLIENT_HELP}. */
public final class RdmaClientCommand extends EpCommand {
    /**
     * The command; the server is 127.0.0.1 unless -s names another.
     */
    public RdmaClientCommand() {
        super("rdma_client", "librdmacm's rdma_client on a jroce device: rdma_create_ep, one 16-byte SEND each way",
            EpUsage.CLIENT_HELP, "127.0.0.1");
    }

    @Override
    int runProgram(EpOptions options, PrintStream out, PrintStream err) throws InterruptedException {
        return new RdmaClientRun(options, out, err).run();
    }
}
