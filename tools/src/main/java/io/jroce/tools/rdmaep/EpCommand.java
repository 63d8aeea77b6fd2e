package io.jroce.tools.rdmaep;

import io.jroce.tools.Command;
import io.jroce.tools.UsageException;
import java.io.PrintStream;
import java.util.List;

/**
 * What {@code jroce rdma_server} and {@code jroce rdma_client} do alike around their run: the
 * options, "NAME: start", the run, "NAME: end N", and the status modulo 256.
 */
abstract class EpCommand implements Command {
    private final String name;
    private final String summary;
    private final String usage;
    private final String defaultServer;

    /**
     * @param name          the program's name, as it prints it
     * @param defaultServer -s when not given
     */
    EpCommand(String name, String summary, String usage, String defaultServer) {
        this.name = name;
        this.summary = summary;
        this.usage = usage;
        this.defaultServer = defaultServer;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String summary() {
        return summary;
    }

    @Override
    public String usage() {
        return usage;
    }

    /** @return the program's status modulo 256: 0, 255 for a failed call, getaddrinfo's error; 1 for a bad option */
    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException, InterruptedException {
        EpOptions.Parsed parsed = EpOptions.parse(name, defaultServer, args, out);
        if (parsed.options() == null) {
            return parsed.status();
        }
        out.println(name + ": start");
        int ret = runProgram(parsed.options(), out, err);
        out.println(name + ": end " + ret);
        return ret & 0xFF;
    }

    /** The program's {@code run}: 0, -1 for a failed call (perror's line printed), or getaddrinfo's error. */
    abstract int runProgram(EpOptions options, PrintStream out, PrintStream err) throws InterruptedException;
}
