package io.jroce.tools.perftest;

import io.jroce.tools.ArgCursor;
import io.jroce.tools.UsageException;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.QpType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a perftest twin was asked for: perftest's options with its defaults (init_perftest_params),
 * and jroce's own for what a kernel RDMA device would know by itself. The dependencies perftest
 * forces between options once they are parsed are {@link PerftestParams}'s business.
 *
 * @param tool        which of the eight tools
 * @param host        the server to connect to; null to be the server
 * @param tcpPort     -p
 * @param deviceName  -d
 * @param size        -s (0 when not given: the tool's default)
 * @param iters       -n (0 when not given)
 * @param txDepth     -t (0 when not given)
 * @param rxDepth     -r (0 when not given)
 * @param cqMod       -Q (0 when not given)
 * @param qpType      -c
 * @param numQps      -q
 * @param inlineSize  -I (-1 when not given)
 * @param outReads    -o (0 when not given: the device's maximum)
 * @param mtu         -m in bytes (0 when not given: the port's active MTU)
 * @param gidIndex    -x (-1 when not given: 0 on RoCE)
 * @param sl          -S
 * @param qpTimeout   -u
 * @param duration    -D in seconds (0: iterations mode)
 * @param margin      -f (-1 when not given)
 * @param compareSwap -A CMP_AND_SWAP (default FETCH_AND_ADD)
 * @param flags       the options without a value
 * @param binds       --bind: the device's IP addresses, one GID each
 * @param udpPort     --udp-port
 * @param peerUdpPort --peer-udp-port
 * @param pcap        --pcap, or null
 */
record PerftestOptions(PerftestTool tool, String host, int tcpPort, String deviceName, long size, int iters,
                       int txDepth, int rxDepth, int cqMod, QpType qpType, int numQps, int inlineSize, int outReads,
                       int mtu, int gidIndex, int sl, int qpTimeout, int duration, int margin, boolean compareSwap,
                       Flags flags, List<String> binds, int udpPort, int peerUdpPort, Path pcap) {
    static final int DEFAULT_TCP_PORT = 18515;

    /**
     * @param all          -a: every size from 2 to 2^23
     * @param bidirectional -b
     * @param cpuFreq      -F: accepted; a JVM measures with System.nanoTime, no CPU frequency
     * @param noPeak       -N
     * @param reportGbits  --report_gbits
     * @param help         -h
     * @param version      -V
     */
    record Flags(boolean all, boolean bidirectional, boolean cpuFreq, boolean noPeak, boolean reportGbits,
                 boolean help, boolean version) {
    }

    boolean isClient() {
        return host != null;
    }

    /** Short options that take a value, as perftest's getopt string has them (those jroce knows). */
    private static final String VALUED = "pdimsntuSxcqIorQADf";
    /** Short options without a value that jroce honours. */
    private static final String FLAGS = "aFbNhV";

    /** Long names of the options above (struct option long_options). */
    private static final String[][] LONG_NAMES = {
        {"port", "p"}, {"ib-dev", "d"}, {"ib-port", "i"}, {"mtu", "m"}, {"size", "s"}, {"iters", "n"},
        {"tx-depth", "t"}, {"qp-timeout", "u"}, {"sl", "S"}, {"gid-index", "x"}, {"all", "a"}, {"CPU-freq", "F"},
        {"connection", "c"}, {"qp", "q"}, {"inline_size", "I"}, {"outs", "o"}, {"rx-depth", "r"},
        {"bidirectional", "b"}, {"cq-mod", "Q"}, {"noPeak", "N"}, {"version", "V"}, {"atomic_type", "A"},
        {"duration", "D"}, {"margin", "f"}, {"help", "h"},
    };

    static PerftestOptions parse(PerftestTool tool, ArgCursor args) throws UsageException {
        return new Parser(tool).parse(args);
    }

    /** getopt_long as perftest calls it: "-s 1", "-s1", "--size=1", "--size 1", bundled flags "-ab". */
    private static final class Parser {
        private final PerftestTool tool;
        private String host;
        private int tcpPort = DEFAULT_TCP_PORT;
        private String deviceName = "jroce0";
        private long size;
        private int iters;
        private int txDepth;
        private int rxDepth;
        private int cqMod;
        private QpType qpType = QpType.RC;
        private int numQps = 1;
        private int inlineSize = -1;
        private int outReads;
        private int mtu;
        private int gidIndex = -1;
        private int sl;
        private int qpTimeout = 14;
        private int duration;
        private int margin = -1;
        private boolean compareSwap;
        private boolean all;
        private boolean bidirectional;
        private boolean cpuFreq;
        private boolean noPeak;
        private boolean reportGbits;
        private boolean help;
        private boolean version;
        private final List<String> binds = new ArrayList<>();
        private int udpPort = AddressVector.ROCE_V2_PORT;
        private int peerUdpPort = -1;
        private Path pcap;

        Parser(PerftestTool tool) {
            this.tool = tool;
        }

        PerftestOptions parse(ArgCursor args) throws UsageException {
            boolean optionsEnded = false;
            while (args.hasNext()) {
                String arg = args.next();
                if (optionsEnded || !arg.startsWith("-") || arg.equals("-")) {
                    if (host != null) {
                        throw new UsageException("one server host at most, got '" + host + "' and '" + arg + "'");
                    }
                    host = arg;
                } else if (arg.equals("--")) {
                    optionsEnded = true;
                } else if (arg.startsWith("--")) {
                    longOption(arg, args);
                } else {
                    shortOptions(arg, args);
                }
            }
            args.finish();
            if (binds.isEmpty()) {
                binds.add("127.0.0.1");
            }
            return new PerftestOptions(tool, host, tcpPort, deviceName, size, iters, txDepth, rxDepth, cqMod, qpType,
                numQps, inlineSize, outReads, mtu, gidIndex, sl, qpTimeout, duration, margin, compareSwap,
                new Flags(all, bidirectional, cpuFreq, noPeak, reportGbits, help, version), List.copyOf(binds),
                udpPort, peerUdpPort < 0 ? udpPort : peerUdpPort, pcap);
        }

        private void shortOptions(String arg, ArgCursor args) throws UsageException {
            for (int i = 1; i < arg.length(); i++) {
                char c = arg.charAt(i);
                String name = "-" + c;
                if (VALUED.indexOf(c) >= 0) {
                    apply(c, name, i + 1 < arg.length() ? arg.substring(i + 1) : args.value(name));
                    return;
                }
                if (FLAGS.indexOf(c) >= 0) {
                    flag(c, name);
                } else {
                    throw Refusals.refusedOrUnknown(name);
                }
            }
        }

        private void longOption(String name, ArgCursor args) throws UsageException {
            switch (name) {
                case "--bind" -> binds.add(args.value(name));
                case "--udp-port" -> udpPort = number(name, args.value(name), 1, 65535);
                case "--peer-udp-port" -> peerUdpPort = number(name, args.value(name), 1, 65535);
                case "--pcap" -> pcap = Path.of(args.value(name));
                case "--report_gbits" -> reportGbits = true;
                default -> {
                    for (String[] option : LONG_NAMES) {
                        if (name.equals("--" + option[0])) {
                            char c = option[1].charAt(0);
                            if (VALUED.indexOf(c) >= 0) {
                                apply(c, name, args.value(name));
                            } else {
                                flag(c, name);
                            }
                            return;
                        }
                    }
                    throw Refusals.refusedOrUnknown(name);
                }
            }
        }

        private void apply(char option, String name, String value) throws UsageException {
            switch (option) {
                case 'p' -> tcpPort = number(name, value, 1, 65535);
                case 'd' -> deviceName = value;
                case 'i' -> {
                    if (number(name, value, 1, 255) != 1) {
                        throw new UsageException(name + " must be 1: a jroce device has one port");
                    }
                }
                case 'm' -> mtu = number(name, value, 0, Integer.MAX_VALUE);
                case 's' -> size = size(name, value);
                case 'n' -> iters = number(name, value, 5, 100_000_000, "Iteration num");
                case 't' -> txDepth = number(name, value, 1, 15_000, "Tx depth");
                case 'u' -> qpTimeout = number(name, value, 0, 31);
                case 'S' -> sl = number(name, value, 0, 15, "Service Level");
                case 'x' -> gidIndex = number(name, value, 0, 64, "Gid index");
                case 'c' -> qpType = connection(value);
                case 'q' -> {
                    if (!tool.bandwidth()) {
                        throw new UsageException(" Multiple QPs only available on bw tests");
                    }
                    numQps = number(name, value, 1, 16_384, "num of Qps");
                }
                case 'I' -> {
                    inlineSize = number(name, value, 0, 912, "Max inline");
                    if (tool.verb().usesOutstandingReads()) {
                        throw new UsageException(" Inline feature not available on READ/Atomic verbs");
                    }
                }
                case 'o' -> {
                    outReads = number(name, value, Integer.MIN_VALUE, Integer.MAX_VALUE);
                    if (!tool.verb().usesOutstandingReads()) {
                        throw new UsageException(" Setting Outstanding reads only available on READ verb");
                    }
                }
                case 'r' -> {
                    rxDepth = number(name, value, 1, 16_384, " Rx depth");
                    if (tool.verb() != PerftestTool.Verb.SEND && rxDepth > 1) {
                        throw new UsageException(" On RDMA verbs rx depth can be only 1");
                    }
                }
                case 'Q' -> cqMod = number(name, value, 1, 1024, "CQ moderation");
                case 'A' -> {
                    if (tool.verb() != PerftestTool.Verb.ATOMIC) {
                        throw new UsageException(" You are not running the atomic_lat/bw test!\n"
                            + " To change the atomic action type, you must run one of the atomic tests");
                    }
                    switch (value) {
                        case "CMP_AND_SWAP" -> compareSwap = true;
                        case "FETCH_AND_ADD" -> compareSwap = false;
                        default -> throw new UsageException(" Invalid Atomic type! please choose from"
                            + " {CMP_AND_SWAP,FETCH_AND_ADD}");
                    }
                }
                case 'D' -> duration = number(name, value, 1, Integer.MAX_VALUE, "Duration period");
                case 'f' -> margin = number(name, value, 0, Integer.MAX_VALUE, "Margin");
                default -> throw new IllegalStateException("option -" + option);
            }
        }

        private void flag(char option, String name) throws UsageException {
            switch (option) {
                case 'a' -> all = true;
                case 'F' -> cpuFreq = true;
                case 'b' -> {
                    if (!tool.bandwidth()) {
                        throw new UsageException(" Bidirectional is only available in BW test");
                    }
                    bidirectional = true;
                }
                case 'N' -> {
                    if (!tool.bandwidth()) {
                        throw new UsageException(" NoPeak only valid for BW tests");
                    }
                    noPeak = true;
                }
                case 'h' -> help = true;
                case 'V' -> version = true;
                default -> throw new IllegalStateException("flag " + name);
            }
        }

        /** change_conn_type: RC, UC (not for READ/atomics), UD (SEND only). */
        private QpType connection(String value) throws UsageException {
            switch (value) {
                case "RC":
                    return QpType.RC;
                case "UC":
                    if (tool.verb().usesOutstandingReads()) {
                        throw new UsageException(" UC connection not possible in READ/ATOMIC verbs");
                    }
                    return QpType.UC;
                case "UD":
                    if (tool.verb() != PerftestTool.Verb.SEND) {
                        throw new UsageException(" UD connection only possible in SEND verb");
                    }
                    return QpType.UD;
                case "RawEth", "XRC", "DC", "SRD":
                    throw new UsageException(" connection type " + value + " is not supported by jroce (RC, UC, UD)");
                default:
                    throw new UsageException(" Invalid Connection type. Please choose from {RC,UC,UD,XRC,DC,SRD}");
            }
        }

        /** -s as perftest reads it: strtol base 0, with a K or M suffix. */
        private static long size(String name, String value) throws UsageException {
            long factor = 1;
            String digits = value;
            if (digits.endsWith("K")) {
                factor = 1024;
                digits = digits.substring(0, digits.length() - 1);
            } else if (digits.endsWith("M")) {
                factor = 1024 * 1024;
                digits = digits.substring(0, digits.length() - 1);
            }
            long n;
            try {
                n = Long.decode(digits.trim()) * factor;
            } catch (NumberFormatException e) {
                n = 0;
            }
            if (n < 1 || n > 0xFFFF_FFFFL / 2) {
                throw new UsageException(" Message Size should be between 1 and " + 0xFFFF_FFFFL / 2);
            }
            return n;
        }

        private static int number(String name, String value, int min, int max) throws UsageException {
            return number(name, value, min, max, name);
        }

        /** A number as strtol base 0 reads it, in perftest's range, named as perftest names it. */
        private static int number(String name, String value, int min, int max, String what) throws UsageException {
            try {
                long n = Long.decode(value.trim());
                if (n >= min && n <= max) {
                    return (int) n;
                }
            } catch (NumberFormatException e) {
                throw new UsageException(name + " needs a number, got '" + value + "'");
            }
            throw new UsageException(" " + what.trim() + " should be between " + min + " and " + max);
        }
    }
}
