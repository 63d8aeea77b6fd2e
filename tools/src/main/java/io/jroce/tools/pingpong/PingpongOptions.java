package io.jroce.tools.pingpong;

import static io.jroce.tools.getopt.OptionSpec.flag;
import static io.jroce.tools.getopt.OptionSpec.value;

import io.jroce.tools.DeviceOptions;
import io.jroce.tools.UsageException;
import io.jroce.tools.getopt.Getopt;
import io.jroce.tools.getopt.OptionSpec;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.Mtu;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code jroce rc_pingpong}, {@code uc_pingpong}, {@code ud_pingpong} or {@code srq_pingpong}
 * was asked for: the options of the rdma-core v44 tool of that name with their defaults, and
 * jroce's own for what a kernel RDMA device would know by itself.
 *
 * @param tool         which of the tools
 * @param host         the server to connect to; null to be the server
 * @param tcpPort      -p: TCP port of the exchange
 * @param size         -s: message size
 * @param mtu          -m: path MTU (ud_pingpong has none: UD uses the port's)
 * @param numQp        -q: QPs (srq_pingpong; 1 for the others)
 * @param rxDepth      -r: receives posted at a time
 * @param iters        -n: exchanges
 * @param sl           -l: service level
 * @param gidIndex     -g: GID index, -1 when not given
 * @param flags        the options without a value that were given
 * @param device       -d, --bind, --udp-port, --peer-udp-port, --pcap: the jroce device
 * @param timeoutSeconds --timeout: longest silence of the peer, 0 for none
 */
record PingpongOptions(PingpongTool tool, String host, int tcpPort, int size, Mtu mtu, int numQp, int rxDepth,
                       int iters, int sl, int gidIndex, Flags flags, DeviceOptions device, int timeoutSeconds) {
    static final int DEFAULT_TCP_PORT = 18515;

    /**
     * The options without a value that were given; each tool knows a subset (ibv_rc_pingpong all).
     *
     * @param events      -e: sleep on CQ events instead of polling
     * @param odp         -o: on-demand paging
     * @param implicitOdp -O: implicit on-demand paging
     * @param prefetch    -P: prefetch an ODP MR
     * @param timestamps  -t: completion timestamps
     * @param validate    -c: the client sends a pattern, the server checks it
     * @param deviceMemory -j: device memory
     * @param newSend     -N: the ibv_wr_* posting API
     */
    record Flags(boolean events, boolean odp, boolean implicitOdp, boolean prefetch, boolean timestamps,
                 boolean validate, boolean deviceMemory, boolean newSend) {
    }

    /** The help of {@code jroce <tool>}: the tool's own options, then jroce's. */
    static String usage(PingpongTool tool) {
        StringBuilder sb = new StringBuilder();
        String name = "jroce " + tool.command();
        sb.append("usage: ").append(name).append(" [options]          start a server and wait for connection\n");
        sb.append("       ").append(name).append(" [options] <host>   connect to server at <host>\n\n");
        sb.append(tool.realTool()).append(" (rdma-core v44) on a jroce device: the same options, TCP exchange,\n");
        sb.append("queue pair attributes and SEND ping-pong, so either side may be jroce or the real tool\n");
        sb.append("on Linux rxe. ").append(DESCRIPTIONS[tool.ordinal()]);
        sb.append("Prints the addresses of both sides, then \"<bytes> bytes in <s> seconds = <n> Mbit/sec\"\n");
        sb.append("and \"<iters> iters in <s> seconds = <n> usec/iter\".\n\n");
        sb.append("options (as ").append(tool.realTool()).append("):\n");
        for (String[] option : OPTION_HELP) {
            if (tool.hasOption(option[0].charAt(0))) {
                sb.append(option[1].replace("%SIZE%", Integer.toString(tool.defaultSize()))
                    .replace("%TOOL%", tool.realTool()));
            }
        }
        sb.append(JROCE_OPTIONS.replace("%TOOL%", tool.realTool()));
        return sb.toString();
    }

    private static final String[] DESCRIPTIONS = {
        "One RC QP.\n",
        "One UC QP: nothing is retransmitted, so a lost packet loses\n"
            + "its message (the run then waits for --timeout).\n",
        "One UD QP (Q_Key 0x11111111) that sends through an address\n"
            + "handle to the peer's GID; a message must fit the port's active MTU (4096 on jroce).\n",
        "-q RC QPs that share one SRQ; the client first sends on\n"
            + "every QP; -n counts the messages of all QPs together, as the real tool does.\n",
    };

    /** Each option's help line, keyed by its letter; a tool lists those it has, in this order. */
    private static final String[][] OPTION_HELP = {
        {"p", "  -p, --port=<port>      listen on/connect to TCP port <port> (default 18515)\n"},
        {"d", "  -d, --ib-dev=<dev>     jroce device of the device file (default: its first)\n"},
        {"i", "  -i, --ib-port=<port>   port of the device: 1, the only one\n"},
        {"s", "  -s, --size=<size>      size of message to exchange (default %SIZE%)\n"},
        {"m", "  -m, --mtu=<size>       path MTU: 256, 512, 1024, 2048 or 4096 (default 1024)\n"},
        {"q", "  -q, --num-qp=<num>     number of QPs to use (default 16, at most 255)\n"},
        {"r", "  -r, --rx-depth=<dep>   number of receives to post at a time (default 500)\n"},
        {"n", "  -n, --iters=<iters>    number of exchanges (default 1000)\n"},
        {"l", "  -l, --sl=<sl>          service level value (default 0)\n"},
        {"g", "  -g, --gid-idx=<index>  local port GID index: the index of a --bind address\n"
            + "                         (default 0, the first; %TOOL% sends a zero GID\n"
            + "                         without -g, which RoCE cannot route)\n"},
        {"c", "  -c, --chk              validate received buffer (the client sends the pattern,\n"
            + "                         the server checks it and prints \"invalid data in page N\")\n"},
        {"N", "  -N, --new_send         use the new post send WR API (jroce has one posting API;\n"
            + "                         the SENDs on the wire are the same)\n"},
        {"e", "  -e, --events           sleep on CQ events (default poll)\n"},
        {"o", "  -o, --odp              on-demand paging: refused, jroce has none\n"},
        {"O", "  -O, --iodp, -P, --prefetch\n"
            + "                         implicit on-demand paging, prefetch: refused likewise\n"},
        {"t", "  -t, --ts               completion timestamps: refused, jroce has none\n"},
        {"j", "  -j, --dm               device memory: refused, jroce has none\n"},
    };

    private static final String JROCE_OPTIONS = """

        jroce options (what a kernel RDMA device knows by itself):
          --bind ADDR            IP address of the device, one GID each; repeatable
                                 (default 127.0.0.1)
          --udp-port N           RoCE UDP port of this device, and of the peer (default 4791)
          --peer-udp-port N      RoCE UDP port of the peer if it differs (two devices on one
                                 address, e.g. both on ::1)
          --pcap FILE            capture what the device sends and receives (pcap, for Wireshark)
          --progress MODE        which thread runs the device: invoker (default: the tool busy-polls
                                 as its original does, so the polling thread does the RNIC's work, with no
                                 hand-off) or eventLoop (its own I/O thread); docs/progress-modes.md
          --timeout SECONDS      give up when the peer stays silent that long (default 0: wait
                                 forever, as %TOOL% does)

        When a run fails, jroce prints its own side after the tool's error line: how many sends
        and receives completed, each QP's state with its sq-psn and rq-psn (the names of
        `rdma res show qp`, to compare with the peer's), and the device counters that moved.
        """;

    /** {@code jroce rc_pingpong --help} (after the tables it is made of: static fields start in order). */
    static final String USAGE = usage(PingpongTool.RC);

    boolean isClient() {
        return host != null;
    }

    /** The GID index the QP sends from: -g, or the first --bind address. */
    int sgidIndex() {
        return gidIndex >= 0 ? gidIndex : 0;
    }

    /** The options of {@code jroce rc_pingpong}. */
    static PingpongOptions parse(List<String> args) throws UsageException {
        return parse(PingpongTool.RC, args);
    }

    static PingpongOptions parse(PingpongTool tool, List<String> args) throws UsageException {
        return new Parser(tool).parse(args);
    }

    /** The table of {@code tool}'s options: its letters of ibv_rc_pingpong's, then jroce's own. */
    private static final class Parser {
        private final PingpongTool tool;
        private int tcpPort = DEFAULT_TCP_PORT;
        private int size;
        private Mtu mtu = Mtu.MTU_1024;
        private int numQp;
        private int rxDepth = 500;
        private int iters = 1000;
        private int sl;
        private int gidIndex = -1;
        private boolean events;
        private boolean odp;
        private boolean implicitOdp;
        private boolean prefetch;
        private boolean timestamps;
        private boolean validate;
        private boolean deviceMemory;
        private boolean newSend;
        private final DeviceOptions.Parser device = new DeviceOptions.Parser();
        private int timeoutSeconds;

        Parser(PingpongTool tool) {
            this.tool = tool;
            this.size = tool.defaultSize();
            this.numQp = tool.sharedReceiveQueue() ? PingpongTool.SRQ_DEFAULT_QPS : 1;
        }

        /** struct option long_options with the optstring's letters; a tool has those whose letter it knows. */
        private List<OptionSpec> table() {
            List<OptionSpec> all = List.of(
                value('p', "port", (o, v) -> tcpPort = Getopt.integer(o, v, 1, 65535)),
                value('d', "ib-dev", (o, v) -> device.name(v)),
                value('i', "ib-port", (o, v) -> {
                    if (Getopt.integer(o, v, 1, Integer.MAX_VALUE) != 1) {
                        throw new UsageException(o + " must be 1: a jroce device has one port");
                    }
                }),
                value('s', "size", (o, v) -> size = Getopt.integer(o, v, 1, Integer.MAX_VALUE)),
                value('m', "mtu", (o, v) -> mtu = mtu(o, v)),
                value('q', "num-qp", (o, v) -> numQp = Getopt.integer(o, v, 1, Integer.MAX_VALUE)),
                value('r', "rx-depth", (o, v) -> rxDepth = Getopt.integer(o, v, 1, Integer.MAX_VALUE - 1)),
                value('n', "iters", (o, v) -> iters = Getopt.integer(o, v, 1, Integer.MAX_VALUE)),
                value('l', "sl", (o, v) -> sl = Getopt.integer(o, v, 0, 15)),
                value('g', "gid-idx", (o, v) -> gidIndex = Getopt.integer(o, v, 0, 255)),
                flag('e', "events", () -> events = true),
                flag('o', "odp", () -> odp = true),
                flag('O', "iodp", () -> {
                    odp = true;
                    implicitOdp = true;
                }),
                flag('P', "prefetch", () -> prefetch = true),
                flag('t', "ts", () -> timestamps = true),
                flag('c', "chk", () -> validate = true),
                flag('j', "dm", () -> deviceMemory = true),
                flag('N', "new_send", () -> newSend = true));
            List<OptionSpec> table = new ArrayList<>();
            all.stream().filter(o -> tool.hasOption(o.shortName())).forEach(table::add);
            table.addAll(device.options());
            table.add(value(OptionSpec.NO_SHORT, "timeout", (o, v) -> timeoutSeconds = Getopt.integer(o, v, 0, 86_400)));
            return table;
        }

        PingpongOptions parse(List<String> args) throws UsageException {
            String host = Getopt.parseWithServer(table(), args);
            return new PingpongOptions(tool, host, tcpPort, size, mtu, numQp, rxDepth, iters, sl, gidIndex,
                new Flags(events, odp, implicitOdp, prefetch, timestamps, validate, deviceMemory, newSend),
                device.build(), timeoutSeconds);
        }

        private static Mtu mtu(String name, String value) throws UsageException {
            int bytes = Getopt.integer(name, value, 1, Integer.MAX_VALUE);
            try {
                return Mtu.fromBytes(bytes);
            } catch (InvalidAttributeException e) {
                throw new UsageException(name + " must be 256, 512, 1024, 2048 or 4096, got " + value);
            }
        }
    }
}
