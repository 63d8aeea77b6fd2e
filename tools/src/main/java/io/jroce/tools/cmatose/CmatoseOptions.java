package io.jroce.tools.cmatose;

import static io.jroce.tools.getopt.OptionSpec.flag;
import static io.jroce.tools.getopt.OptionSpec.value;

import io.jroce.tools.DeviceOptions;
import io.jroce.tools.UsageException;
import io.jroce.tools.cmcommon.CLib;
import io.jroce.tools.cmcommon.JroceOptionException;
import io.jroce.tools.cmcommon.TwinDeviceOptions;
import io.jroce.tools.getopt.Getopt;
import io.jroce.tools.getopt.OptionSpec;
import io.jroce.verbs.cm.PortSpace;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code jroce ucmatose} was asked for: cmatose v44's options ({@code getopt
 * "s:b:f:P:c:C:S:t:p:a:m"}) with its defaults, and jroce's device options.
 *
 * @param server      -s: the server's address (be the client), or null (be the server)
 * @param bind        -b: the bind address, or null
 * @param numericHost -f ip: RAI_NUMERICHOST
 * @param portSpace   -P
 * @param connections -c
 * @param count       -C: messages each way per connection
 * @param size        -S: message size
 * @param port        -p: the service, as getaddrinfo takes it
 * @param device      --bind, --udp-port, --pcap
 * @param binds       the --bind addresses, or null when not given
 * @param tos         -t: the type of service to set on each client ID (RDMA_OPTION_ID_TOS), or null
 * @param ackTimeout  -a: the ACK timeout to set on every ID (RDMA_OPTION_ID_ACK_TIMEOUT), or null
 */
record CmatoseOptions(String server, String bind, boolean numericHost, PortSpace portSpace, int connections,
                      int count, int size, String port, DeviceOptions device, List<String> binds, Integer tos,
                      Integer ackTimeout) {
    static final String DEFAULT_PORT = "7471";
    /** exit(1) after the usage. */
    static final int USAGE_STATUS = 1;

    /** The outcome of a parse: options to run, or the status cmatose exits with (its usage already printed). */
    record Parsed(CmatoseOptions options, int status) {
    }

    /**
     * Parses as cmatose's main does: each option in turn; an unknown option or a missing value
     * prints the usage to {@code out} and stops with status 1; an unknown -f or -P value warns on
     * {@code err} and is ignored.
     *
     * @throws UsageException a jroce option is wrong, or an option jroce refuses (-m, -f gid)
     */
    static Parsed parse(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        return new Parser(err).parse(args, out);
    }

    private static final class Parser {
        private final PrintStream err;
        private String server;
        private String bind;
        private boolean numericHost;
        private PortSpace portSpace = PortSpace.TCP;
        private int connections = 1;
        private int count = 10;
        private int size = 100;
        private String port = DEFAULT_PORT;
        private Integer tos;
        private Integer ackTimeout;
        private final TwinDeviceOptions device = new TwinDeviceOptions();

        Parser(PrintStream err) {
            this.err = err;
        }

        private List<OptionSpec> table() {
            List<OptionSpec> table = new ArrayList<>(List.of(
                value('s', null, (o, v) -> server = v),
                value('b', null, (o, v) -> bind = v),
                value('f', null, (o, v) -> format(v)),
                value('P', null, (o, v) -> {
                    if (startsWithIgnoreCase(v, "ib", 2)) {
                        portSpace = PortSpace.IB;
                    } else if (!startsWithIgnoreCase(v, "tcp", 3)) {
                        err.println("Warning: unknown port space format");
                    }
                }),
                value('c', null, (o, v) -> connections = CLib.atoi(v)),
                value('C', null, (o, v) -> count = CLib.atoi(v)),
                value('S', null, (o, v) -> size = CLib.atoi(v)),
                value('t', null, (o, v) -> tos = CLib.uint8(v)),
                value('p', null, (o, v) -> port = v),
                flag('m', null, () -> {
                    throw new JroceOptionException("-m (moving the IDs to a new event channel, rdma_migrate_id) is"
                        + " not supported: jroce's RDMA CM API has no rdma_migrate_id");
                }),
                value('a', null, (o, v) -> ackTimeout = CLib.uint8(v))));
            table.addAll(device.options());
            return table;
        }

        /** -f: ip (and ipv6, which begins alike) is RAI_NUMERICHOST; name is the default; gid is AF_IB. */
        private void format(String v) throws UsageException {
            if (startsWithIgnoreCase(v, "ip", 2)) {
                numericHost = true;
            } else if (startsWithIgnoreCase(v, "gid", 3)) {
                throw new JroceOptionException("-f gid (AF_IB addresses, RAI_FAMILY) is not supported: jroce's RDMA CM"
                    + " speaks IP addresses only");
            } else if (!startsWithIgnoreCase(v, "name", 4)) {
                err.println("Warning: unknown address format");
            }
        }

        Parsed parse(List<String> args, PrintStream out) throws UsageException {
            try {
                // cmatose reads options only; getopt leaves the operands, which it ignores.
                new Getopt(table(), (o, operand) -> { }).parse(args);
            } catch (JroceOptionException e) {
                throw e;
            } catch (UsageException e) {
                out.print(CmatoseUsage.CMATOSE);
                return new Parsed(null, USAGE_STATUS);
            }
            DeviceOptions d = device.build();
            return new Parsed(new CmatoseOptions(server, bind, numericHost, portSpace, connections, count, size, port,
                d, device.bindGiven() ? d.binds() : null, tos, ackTimeout), 0);
        }
    }

    /** strncasecmp(prefix, v, n) == 0, as cmatose compares its -f and -P values. */
    static boolean startsWithIgnoreCase(String v, String prefix, int n) {
        String head = v.length() > n ? v.substring(0, n) : v;
        return head.equalsIgnoreCase(prefix.substring(0, Math.min(n, prefix.length())));
    }
}
