package io.jroce.tools.rping;

import static io.jroce.tools.getopt.OptionSpec.flag;
import static io.jroce.tools.getopt.OptionSpec.value;

import io.jroce.tools.DeviceOptions;
import io.jroce.tools.UsageException;
import io.jroce.tools.cmcommon.AddrLookup;
import io.jroce.tools.cmcommon.CLib;
import io.jroce.tools.cmcommon.JroceOptionException;
import io.jroce.tools.cmcommon.TwinDeviceOptions;
import io.jroce.tools.getopt.Getopt;
import io.jroce.tools.getopt.OptionSpec;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code jroce rping} was asked for: rping v44's options ({@code getopt "a:I:Pp:C:S:t:scvVdq"})
 * with its defaults, and jroce's device options.
 *
 * @param server     -s (true) or -c (false)
 * @param address    -a: the server's address (the client's destination); 0.0.0.0 when not given
 * @param source     -I: the client's source address, or null
 * @param persistent -P
 * @param port       -p: the RDMA CM port, as rping keeps it (16 bits)
 * @param count      -C: pings, 0 for forever
 * @param size       -S: ping data size
 * @param verbose    -v
 * @param validate   -V
 * @param debug      -d
 * @param device     --bind, --udp-port, --pcap
 * @param bindGiven  whether --bind chose the device's addresses (else rping's addresses do)
 */
record RpingOptions(boolean server, InetAddress address, InetAddress source, boolean persistent, int port, int count,
                    int size, boolean verbose, boolean validate, boolean debug, DeviceOptions device,
                    boolean bindGiven) {
    static final int DEFAULT_PORT = 7174;
    static final int DEFAULT_SIZE = 64;
    /** RPING_BUFSIZE: sizes go up to one less. */
    static final int BUFSIZE = 64 * 1024;
    /** RPING_MIN_BUFSIZE: sizeof("2147483647") + sizeof("rdma-ping-%d: "), room for the longest ping header. */
    static final int MIN_SIZE = 11 + 15;

    /** rping's exit status for a bad option (EINVAL). */
    static final int EINVAL = 22;
    /** getaddrinfo's EAI_NONAME (-2), which rping returns from main for an address that does not resolve. */
    static final int EAI_NONAME = -2;

    /** The --bind addresses, or null when rping's addresses choose the device's. */
    List<String> binds() {
        return bindGiven ? device.binds() : null;
    }

    /** The outcome of a parse: options to run, or the status rping exits with (its messages already printed). */
    record Parsed(RpingOptions options, int status) {
    }

    /**
     * Parses as rping's main does: each option in turn, debug lines as they come (when -d came
     * first), an unknown option or a missing value prints the usage to {@code out} and stops; a bad
     * size, count or address is reported and remembered, and the last of those decides the status.
     *
     * @throws UsageException a jroce option is wrong, or -q (refused)
     */
    static Parsed parse(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        return new Parser(out, err).parse(args);
    }

    private static final class Parser {
        private final PrintStream out;
        private final PrintStream err;
        private int server = -1;
        private InetAddress address = AddrLookup.ANY_IPV4;
        private InetAddress source;
        private boolean persistent;
        private int port = DEFAULT_PORT;
        private int count;
        private int size = DEFAULT_SIZE;
        private boolean verbose;
        private boolean validate;
        private boolean debug;
        private int ret;
        private final TwinDeviceOptions device = new TwinDeviceOptions();

        Parser(PrintStream out, PrintStream err) {
            this.out = out;
            this.err = err;
        }

        private List<OptionSpec> table() {
            List<OptionSpec> table = new ArrayList<>(List.of(
                value('a', null, (o, v) -> {
                    InetAddress a = resolve(v);
                    ret = a == null ? EAI_NONAME : 0;
                    if (a != null) {
                        address = a;
                    }
                }),
                value('I', null, (o, v) -> {
                    InetAddress a = resolve(v);
                    ret = a == null ? EAI_NONAME : 0;
                    if (a != null) {
                        source = a;
                    }
                }),
                flag('P', null, () -> persistent = true),
                value('p', null, (o, v) -> {
                    port = CLib.atoi(v) & 0xFFFF; // htobe16
                    debug("port " + CLib.atoi(v));
                }),
                value('C', null, (o, v) -> {
                    count = CLib.atoi(v);
                    if (count < 0) {
                        err.println("Invalid count " + count);
                        ret = EINVAL;
                    } else {
                        debug("count " + count);
                    }
                }),
                value('S', null, (o, v) -> {
                    size = CLib.atoi(v);
                    if (size < MIN_SIZE || size > BUFSIZE - 1) {
                        err.println("Invalid size " + size + " (valid range is " + MIN_SIZE + " to " + BUFSIZE + ")");
                        ret = EINVAL;
                    } else {
                        debug("size " + size);
                    }
                }),
                // In rping's optstring but without a case: its default, the usage.
                value('t', null, (o, v) -> {
                    throw new UsageException("-t");
                }),
                flag('s', null, () -> {
                    server = 1;
                    debug("server");
                }),
                flag('c', null, () -> {
                    server = 0;
                    debug("client");
                }),
                flag('v', null, () -> {
                    verbose = true;
                    debug("verbose");
                }),
                flag('V', null, () -> {
                    validate = true;
                    debug("validate data");
                }),
                flag('d', null, () -> debug = true),
                flag('q', null, () -> {
                    throw new JroceOptionException("-q (a self-created QP that rping moves with rdma_init_qp_attr and"
                        + " connects with rdma_establish) is not supported: jroce's RDMA CM creates the QP itself"
                        + " (rdma_create_qp) and has neither call");
                })));
            table.addAll(device.options());
            return table;
        }

        Parsed parse(List<String> args) throws UsageException {
            try {
                // rping reads options only; getopt leaves the operands, which it ignores.
                new Getopt(table(), (o, operand) -> { }).parse(args);
            } catch (JroceOptionException e) {
                throw e;
            } catch (UsageException e) {
                out.print(RpingUsage.RPING);
                return new Parsed(null, EINVAL);
            }
            if (ret != 0) {
                return new Parsed(null, ret);
            }
            if (server == -1) {
                out.print(RpingUsage.RPING);
                return new Parsed(null, EINVAL);
            }
            return new Parsed(new RpingOptions(server == 1, address, source, persistent, port, count, size, verbose,
                validate, debug, device.build(), device.bindGiven()), 0);
        }

        private void debug(String line) {
            if (debug) {
                out.println(line);
            }
        }

        /** get_addr: getaddrinfo's first answer, or its complaint on stdout and null. */
        private InetAddress resolve(String host) {
            if (!host.isEmpty()) {
                try {
                    return InetAddress.getByName(host);
                } catch (UnknownHostException e) {
                    // reported below
                }
            }
            out.println("getaddrinfo failed (Name or service not known) - invalid hostname or IP address");
            return null;
        }
    }
}
