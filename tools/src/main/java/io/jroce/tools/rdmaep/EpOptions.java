package io.jroce.tools.rdmaep;

import static io.jroce.tools.getopt.OptionSpec.value;

import io.jroce.tools.DeviceOptions;
import io.jroce.tools.UsageException;
import io.jroce.tools.cmcommon.JroceOptionException;
import io.jroce.tools.cmcommon.TwinDeviceOptions;
import io.jroce.tools.getopt.Getopt;
import io.jroce.tools.getopt.OptionSpec;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code jroce rdma_server} or {@code jroce rdma_client} was asked for: the programs' options
 * ({@code getopt "s:p:"}) with their defaults, and jroce's device options.
 *
 * @param server -s: the address to listen on (rdma_server, default 0.0.0.0) or connect to
 *               (rdma_client, default 127.0.0.1)
 * @param port   -p: the service, as rdma_getaddrinfo takes it (default 7471)
 * @param device --bind, --udp-port, --pcap
 * @param binds  the --bind addresses, or null when not given
 */
record EpOptions(String server, String port, DeviceOptions device, List<String> binds) {
    static final String DEFAULT_PORT = "7471";
    /** exit(1) after the usage. */
    static final int USAGE_STATUS = 1;

    /** The outcome of a parse: options to run, or the status the program exits with (its usage printed). */
    record Parsed(EpOptions options, int status) {
    }

    /**
     * Parses as the programs' main does: an unknown option or a missing value prints the usage,
     * named {@code program}, to {@code out} and stops with status 1.
     *
     * @throws UsageException a jroce option is wrong
     */
    static Parsed parse(String program, String defaultServer, List<String> args, PrintStream out)
        throws UsageException {
        String[] server = {defaultServer};
        String[] port = {DEFAULT_PORT};
        TwinDeviceOptions device = new TwinDeviceOptions();
        List<OptionSpec> table = new ArrayList<>(List.of(
            value('s', null, (o, v) -> server[0] = v),
            value('p', null, (o, v) -> port[0] = v)));
        table.addAll(device.options());
        try {
            // the programs read options only; getopt leaves the operands, which they ignore
            new Getopt(table, (o, operand) -> { }).parse(args);
        } catch (JroceOptionException e) {
            throw e;
        } catch (UsageException e) {
            out.print(usage(program));
            return new Parsed(null, USAGE_STATUS);
        }
        DeviceOptions d = device.build();
        return new Parsed(new EpOptions(server[0], port[0], d, device.bindGiven() ? d.binds() : null), 0);
    }

    /** The programs' usage, argv[0] being the program's name. */
    static String usage(String program) {
        return "usage: " + program + "\n\t[-s server_address]\n\t[-p port_number]\n";
    }
}
