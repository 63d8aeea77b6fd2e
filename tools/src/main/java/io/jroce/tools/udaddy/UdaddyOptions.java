package io.jroce.tools.udaddy;

import static io.jroce.tools.getopt.OptionSpec.value;

import io.jroce.tools.DeviceOptions;
import io.jroce.tools.cmcommon.CLib;
import io.jroce.tools.cmcommon.JroceOptionException;
import io.jroce.tools.cmcommon.TwinDeviceOptions;
import io.jroce.tools.cmcommon.TwinGetopt;
import io.jroce.tools.UsageException;
import io.jroce.tools.getopt.OptionSpec;
import io.jroce.verbs.cm.PortSpace;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code jroce udaddy} was asked for: udaddy v44's options ({@code getopt "s:b:c:C:S:t:p:P:f:"})
 * with its defaults, and jroce's device options.
 *
 * @param server      -s: the server to resolve (a name or a literal); null to be the server
 * @param bind        -b: the address to bind (the server's) or to resolve from (the client's), or null
 * @param connections -c: how many IDs (the client's) or requests (the server's)
 * @param count       -C: messages each way per connection
 * @param size        -S: bytes per message
 * @param numericHost -f ip: addresses must be literals (RAI_NUMERICHOST)
 * @param device      --bind, --udp-port, --pcap
 * @param bindGiven   whether --bind chose the device's addresses (else udaddy's addresses do)
 * @param tos         -t: the type of service each client ID sets before rdma_resolve_route, or null
 */
record UdaddyOptions(String server, String bind, int connections, int count, int size, boolean numericHost,
                     DeviceOptions device, boolean bindGiven, Integer tos) {
    /** udaddy's port, a constant ({@code static const char *port = "7174"}): no option changes it. */
    static final int PORT = 7174;
    static final int DEFAULT_CONNECTIONS = 1;
    static final int DEFAULT_COUNT = 10;
    static final int DEFAULT_SIZE = 100;
    /** udaddy's exit status for a bad option: usage() then exit(1). */
    static final int USAGE_STATUS = 1;
    /** RDMA_PS_IPOIB, the other port space udaddy knows. */
    static final int PS_IPOIB = 0x0002;

    boolean isServer() {
        return server == null;
    }

    /** The outcome of a parse: options to run, or the status udaddy exits with (its messages printed). */
    record Parsed(UdaddyOptions options, int status) {
    }

    /**
     * Parses as udaddy's main does: each option in turn; an unknown option or a missing value makes
     * getopt complain on stderr and udaddy print its usage to stdout and exit 1.
     *
     * @throws UsageException a jroce option is wrong, or an option jroce refuses (-P ipoib, -p other
     *                        than UDP, -f gid, a negative -C or -S)
     */
    static Parsed parse(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        return new Parser(err).parse(args, out, err);
    }


    private static final class Parser {
        private final PrintStream err;
        private String server;
        private String bind;
        private int connections = DEFAULT_CONNECTIONS;
        private int count = DEFAULT_COUNT;
        private int size = DEFAULT_SIZE;
        private boolean numericHost;
        private Integer tos;
        private final TwinDeviceOptions device = new TwinDeviceOptions();

        Parser(PrintStream err) {
            this.err = err;
        }

        private List<OptionSpec> table() {
            List<OptionSpec> table = new ArrayList<>(List.of(
                value('s', null, (o, v) -> server = v),
                value('b', null, (o, v) -> bind = v),
                value('c', null, (o, v) -> connections = atoi(v)),
                value('C', null, (o, v) -> {
                    count = atoi(v);
                    if (count < 0) {
                        throw new JroceOptionException("-C " + v + ": a negative message count (udaddy's CQ of"
                            + " fewer than zero entries) is not supported");
                    }
                }),
                value('S', null, (o, v) -> {
                    size = atoi(v);
                    if (size < 0) {
                        throw new JroceOptionException("-S " + v + ": a negative message size (a scatter/gather"
                            + " entry of 2^32 - n bytes in udaddy) is not supported");
                    }
                }),
                value('t', null, (o, v) -> tos = CLib.uint8(v)),
                value('p', null, (o, v) -> {
                    long space = strtol(v);
                    if (space != PortSpace.UDP.value()) {
                        throw new JroceOptionException("-p " + v + ": jroce's RDMA CM takes udaddy's port space"
                            + " UDP (0x111) only");
                    }
                }),
                value('P', null, (o, v) -> {
                    if (v.regionMatches(true, 0, "ipoib", 0, 5)) {
                        throw new JroceOptionException("-P ipoib: jroce has no IPoIB port space");
                    } else if (!v.regionMatches(true, 0, "udp", 0, 3)) {
                        err.println("Warning: unknown port space format");
                    }
                }),
                value('f', null, (o, v) -> {
                    if (v.regionMatches(true, 0, "ip", 0, 2)) {
                        numericHost = true;
                    } else if (v.regionMatches(true, 0, "gid", 0, 3)) {
                        throw new JroceOptionException("-f gid: AF_IB addresses are InfiniBand's; jroce speaks"
                            + " RoCEv2 with IP addresses");
                    } else if (!v.regionMatches(true, 0, "name", 0, 4)) {
                        err.println("Warning: unknown address format");
                    }
                })));
            table.addAll(device.options());
            return table;
        }

        Parsed parse(List<String> args, PrintStream out, PrintStream err) throws UsageException {
            if (!TwinGetopt.parse("udaddy", UdaddyUsage.UDADDY, table(), args, out, err)) {
                return new Parsed(null, USAGE_STATUS);
            }
            return new Parsed(new UdaddyOptions(server, bind, connections, count, size, numericHost, device.build(),
                device.bindGiven(), tos), 0);
        }
    }

    /** C's atoi. */
    static int atoi(String s) {
        return CLib.atoi(s);
    }

    /** strtol(s, NULL, 0). */
    static long strtol(String s) {
        return CLib.strtol(s);
    }
}
