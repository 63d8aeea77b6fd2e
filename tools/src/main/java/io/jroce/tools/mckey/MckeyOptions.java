package io.jroce.tools.mckey;

import static io.jroce.tools.getopt.OptionSpec.flag;
import static io.jroce.tools.getopt.OptionSpec.value;

import io.jroce.tools.DeviceOptions;
import io.jroce.tools.UsageException;
import io.jroce.tools.cmcommon.CLib;
import io.jroce.tools.cmcommon.JroceOptionException;
import io.jroce.tools.cmcommon.TwinDeviceOptions;
import io.jroce.tools.cmcommon.TwinGetopt;
import io.jroce.tools.getopt.OptionSpec;
import io.jroce.verbs.cm.PortSpace;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code jroce mckey} was asked for: mckey v44's options ({@code getopt "m:M:sb:c:C:S:p:ol"})
 * with its defaults, and jroce's device options.
 *
 * @param group       -m: the multicast group (a name or a literal), or null when none was given
 * @param sender      -s
 * @param bind        -b: the address to bind and resolve from, or null
 * @param connections -c: how many IDs join
 * @param count       -C: messages per ID
 * @param size        -S: bytes per message
 * @param device      --bind, --udp-port, --peer-udp-port, --pcap
 * @param bindGiven   whether --bind chose the device's addresses (else mckey's addresses do)
 * @param sendOnly    -o: join as a send-only full member (RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER)
 */
record MckeyOptions(String group, boolean sender, String bind, int connections, int count, int size,
                    DeviceOptions device, boolean bindGiven, boolean sendOnly) {
    static final int DEFAULT_CONNECTIONS = 1;
    static final int DEFAULT_COUNT = 10;
    static final int DEFAULT_SIZE = 100;
    /** mckey's exit status for a bad option: usage() then exit(1). */
    static final int USAGE_STATUS = 1;

    /** The outcome of a parse: options to run, or the status mckey exits with (its messages printed). */
    record Parsed(MckeyOptions options, int status) {
    }

    /**
     * Parses as mckey's main does: an unknown option or a missing value makes getopt complain on
     * stderr and mckey print its usage to stdout and exit 1.
     *
     * @throws UsageException a jroce option is wrong, or an option jroce refuses (-M, -l, -p other
     *                        than UDP, a negative -C or -S)
     */
    static Parsed parse(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        return new Parser().parse(args, out, err);
    }

    private static final class Parser {
        private String group;
        private boolean sender;
        private boolean sendOnly;
        private String bind;
        private int connections = DEFAULT_CONNECTIONS;
        private int count = DEFAULT_COUNT;
        private int size = DEFAULT_SIZE;
        /** All of jroce's device options: mckey's group is reached on the peers' port (--peer-udp-port). */
        private final TwinDeviceOptions device = new TwinDeviceOptions(true);

        private List<OptionSpec> table() {
            List<OptionSpec> table = new ArrayList<>(List.of(
                value('m', null, (o, v) -> group = v),
                value('M', null, (o, v) -> {
                    throw new JroceOptionException("-M " + v + ": an unmapped multicast address is an AF_IB"
                        + " (InfiniBand) address; jroce speaks RoCEv2 with IP groups, use -m");
                }),
                flag('s', null, () -> sender = true),
                value('b', null, (o, v) -> bind = v),
                value('c', null, (o, v) -> connections = CLib.atoi(v)),
                value('C', null, (o, v) -> {
                    count = CLib.atoi(v);
                    if (count < 0) {
                        throw new JroceOptionException("-C " + v + ": a negative message count (mckey's CQ of"
                            + " fewer than zero entries) is not supported");
                    }
                }),
                value('S', null, (o, v) -> {
                    size = CLib.atoi(v);
                    if (size < 0) {
                        throw new JroceOptionException("-S " + v + ": a negative message size (a scatter/gather"
                            + " entry of 2^32 - n bytes in mckey) is not supported");
                    }
                }),
                value('p', null, (o, v) -> {
                    if (strtol(v) != PortSpace.UDP.value()) {
                        throw new JroceOptionException("-p " + v + ": jroce's RDMA CM takes mckey's port space"
                            + " UDP (0x111) only; IPoIB (0x2) is InfiniBand's");
                    }
                }),
                flag('o', null, () -> sendOnly = true),
                flag('l', null, () -> {
                    throw new JroceOptionException("-l (IBV_QP_CREATE_BLOCK_SELF_MCAST_LB) is not supported:"
                            + " jroce's QPs cannot block their own multicast loopback");
                })));
            table.addAll(device.options());
            return table;
        }

        Parsed parse(List<String> args, PrintStream out, PrintStream err) throws UsageException {
            if (!TwinGetopt.parse("mckey", MckeyUsage.MCKEY, table(), args, out, err)) {
                return new Parsed(null, USAGE_STATUS);
            }
            return new Parsed(new MckeyOptions(group, sender, bind, connections, count, size, device.build(),
                device.bindGiven(), sendOnly), 0);
        }
    }

    /** strtol(s, NULL, 0) for a port space. */
    static long strtol(String s) {
        return CLib.strtol(s);
    }
}
