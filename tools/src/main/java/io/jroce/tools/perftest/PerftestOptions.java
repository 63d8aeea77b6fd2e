package io.jroce.tools.perftest;

import static io.jroce.tools.getopt.OptionSpec.flag;
import static io.jroce.tools.getopt.OptionSpec.value;

import io.jroce.tools.DeviceOptions;
import io.jroce.tools.UsageException;
import io.jroce.tools.getopt.Getopt;
import io.jroce.tools.getopt.OptionSpec;
import io.jroce.verbs.QpType;
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
 * @param tos         -T: the type of service of the RDMA CM's IDs, or {@link #DEF_TOS} when not given
 * @param warmUp      --warm-up: a latency test's iterations before the -n it measures (jroce's own; 0: none)
 * @param flags       the options without a value
 * @param device      -d, --bind, --udp-port, --peer-udp-port, --pcap: the jroce device
 */
record PerftestOptions(PerftestTool tool, String host, int tcpPort, long size, int iters, int txDepth, int rxDepth,
                       int cqMod, QpType qpType, int numQps, int inlineSize, int outReads, int mtu, int gidIndex,
                       int sl, int qpTimeout, int duration, int margin, boolean compareSwap, int tos, int warmUp, Flags flags,
                       DeviceOptions device) {
    static final int DEFAULT_TCP_PORT = 18515;
    /** perftest's DEF_TOS: -T not given. */
    static final int DEF_TOS = -1;

    /**
     * @param all          -a: every size from 2 to 2^23
     * @param bidirectional -b
     * @param cpuFreq      -F: accepted; a JVM measures with System.nanoTime, no CPU frequency
     * @param noPeak       -N
     * @param reportGbits  --report_gbits
     * @param rdmaCm       -R: the QPs and the exchange through the RDMA CM
     * @param help         -h
     * @param version      -V
     */
    record Flags(boolean all, boolean bidirectional, boolean cpuFreq, boolean noPeak, boolean reportGbits,
                 boolean rdmaCm, boolean help, boolean version) {
    }

    boolean isClient() {
        return host != null;
    }

    static PerftestOptions parse(PerftestTool tool, List<String> args) throws UsageException {
        return new Parser(tool).parse(args);
    }

    /** getopt_long as perftest calls it: "-s 1", "-s1", "--size=1", "--size 1", bundled flags "-ab". */
    private static final class Parser {
        private final PerftestTool tool;
        private int tcpPort = DEFAULT_TCP_PORT;
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
        private int tos = DEF_TOS;
        private int warmUp;
        private boolean all;
        private boolean bidirectional;
        private boolean cpuFreq;
        private boolean noPeak;
        private boolean reportGbits;
        private boolean rdmaCm;
        private boolean help;
        private boolean version;
        private final DeviceOptions.Parser device = new DeviceOptions.Parser();

        Parser(PerftestTool tool) {
            this.tool = tool;
        }

        /** struct option long_options with the optstring's letters (those jroce takes), then jroce's own. */
        private List<OptionSpec> table() {
            List<OptionSpec> table = new ArrayList<>(List.of(
                value('p', "port", (o, v) -> tcpPort = number(o, v, 1, 65535)),
                value('d', "ib-dev", (o, v) -> device.name(v)),
                value('i', "ib-port", (o, v) -> {
                    if (number(o, v, 1, 255) != 1) {
                        throw new UsageException(o + " must be 1: a jroce device has one port");
                    }
                }),
                value('m', "mtu", (o, v) -> mtu = number(o, v, 0, Integer.MAX_VALUE)),
                value('s', "size", (o, v) -> size = size(v)),
                value('n', "iters", (o, v) -> iters = number(o, v, 5, 100_000_000, "Iteration num")),
                value('t', "tx-depth", (o, v) -> txDepth = number(o, v, 1, 15_000, "Tx depth")),
                value('u', "qp-timeout", (o, v) -> qpTimeout = number(o, v, 0, 31)),
                value('T', "tos", (o, v) -> tos = number(o, v, 0, 255, "TOS")),
                value('S', "sl", (o, v) -> sl = number(o, v, 0, 15, "Service Level")),
                value('x', "gid-index", (o, v) -> gidIndex = number(o, v, 0, 64, "Gid index")),
                flag('a', "all", () -> all = true),
                flag('F', "CPU-freq", () -> cpuFreq = true),
                value('c', "connection", (o, v) -> qpType = connection(v)),
                value('q', "qp", this::numQps),
                value('I', "inline_size", this::inlineSize),
                value('o', "outs", this::outReads),
                value('r', "rx-depth", this::rxDepth),
                flag('b', "bidirectional", this::bidirectional),
                value('Q', "cq-mod", (o, v) -> cqMod = number(o, v, 1, 1024, "CQ moderation")),
                flag('N', "noPeak", this::noPeak),
                flag('V', "version", () -> version = true),
                value('A', "atomic_type", (o, v) -> atomicType(v)),
                value('D', "duration", (o, v) -> duration = number(o, v, 1, Integer.MAX_VALUE, "Duration period")),
                value('f', "margin", (o, v) -> margin = number(o, v, 0, Integer.MAX_VALUE, "Margin")),
                flag('h', "help", () -> help = true),
                flag('R', "rdma_cm", () -> rdmaCm = true),
                flag(OptionSpec.NO_SHORT, "report_gbits", () -> reportGbits = true),
                value(OptionSpec.NO_SHORT, "warm-up", this::warmUp)));
            table.addAll(UnsupportedPerftestOptions.TABLE);
            table.addAll(device.options());
            return table;
        }

        PerftestOptions parse(List<String> args) throws UsageException {
            String host = Getopt.parseWithServer(table(), args);
            if (warmUp > 0 && duration > 0) {
                throw new UsageException(" --warm-up counts iterations: it goes with -n, not with -D (whose -f margin"
                    + " is its warm-up)");
            }
            return new PerftestOptions(tool, host, tcpPort, size, iters, txDepth, rxDepth, cqMod, qpType, numQps,
                inlineSize, outReads, mtu, gidIndex, sl, qpTimeout, duration, margin, compareSwap, tos, warmUp,
                new Flags(all, bidirectional, cpuFreq, noPeak, reportGbits, rdmaCm, help, version), device.build());
        }

        /**
         * --warm-up N: N iterations run before the -n measured ones and left out of the report, so
         * that the figures are the steady state's, as a benchmark that warms up first reports (the
         * JIT compiles jroce's data path during a run's first thousands of iterations). Both sides
         * give the same N, as they give the same -n. perftest has no such option for its latency
         * tests (its --perform_warm_up is for bandwidth tests).
         */
        private void warmUp(String name, String value) throws UsageException {
            if (tool.bandwidth()) {
                throw new UsageException(" --warm-up is only available on latency tests");
            }
            warmUp = number(name, value, 0, 100_000_000, "Warm-up iterations");
        }

        private void numQps(String name, String value) throws UsageException {
            if (!tool.bandwidth()) {
                throw new UsageException(" Multiple QPs only available on bw tests");
            }
            numQps = number(name, value, 1, 16_384, "num of Qps");
        }

        private void inlineSize(String name, String value) throws UsageException {
            inlineSize = number(name, value, 0, 912, "Max inline");
            if (tool.verb().usesOutstandingReads()) {
                throw new UsageException(" Inline feature not available on READ/Atomic verbs");
            }
        }

        private void outReads(String name, String value) throws UsageException {
            outReads = number(name, value, Integer.MIN_VALUE, Integer.MAX_VALUE);
            if (!tool.verb().usesOutstandingReads()) {
                throw new UsageException(" Setting Outstanding reads only available on READ verb");
            }
        }

        private void rxDepth(String name, String value) throws UsageException {
            rxDepth = number(name, value, 1, 16_384, " Rx depth");
            if (tool.verb() != PerftestTool.Verb.SEND && rxDepth > 1) {
                throw new UsageException(" On RDMA verbs rx depth can be only 1");
            }
        }

        private void bidirectional() throws UsageException {
            if (!tool.bandwidth()) {
                throw new UsageException(" Bidirectional is only available in BW test");
            }
            bidirectional = true;
        }

        private void noPeak() throws UsageException {
            if (!tool.bandwidth()) {
                throw new UsageException(" NoPeak only valid for BW tests");
            }
            noPeak = true;
        }

        private void atomicType(String value) throws UsageException {
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
        private static long size(String value) throws UsageException {
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
