package io.jroce.tools.explain;

import java.io.PrintStream;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints a connection as a ladder diagram: a column per end, one arrow per packet with its frame
 * number, time since the capture's start, opcode, PSN and headers, the analysis notes under it;
 * then the findings and a per-QP summary. A packet the network held back (known from event logs) is
 * drawn {@code |-- label [delayed] ~~~>|}, one it delivered twice {@code |-- label [duplicated] --->>|}.
 */
final class LadderPrinter {
    /** Width of the space between the two columns, which each arrow spans. */
    static final int ARROW = 72;
    private static final String INDENT = " ".repeat(18);

    private final PrintStream out;
    private final long startNs;
    private final Map<Integer, NetworkFault> faults;

    LadderPrinter(PrintStream out, long startNs) {
        this(out, startNs, Map.of());
    }

    /** A printer that draws the packets of {@code faults} (by frame) delayed or duplicated as they were. */
    LadderPrinter(PrintStream out, long startNs, Map<Integer, NetworkFault> faults) {
        this.out = out;
        this.startNs = startNs;
        this.faults = faults;
    }

    void print(Report report, List<Packet> shown) {
        Connection c = report.connection();
        out.printf("connection %d (%s): A = %s, B = %s%n%n", c.number(), c.transport(), c.a(), c.b());
        out.printf("%7s %10s  %-" + ARROW + "s%n", "frame", "time (s)", header(c));
        for (Packet p : shown) {
            out.println(line(p, c.from(p)));
            for (String note : report.notes(p)) {
                out.println(INDENT + "  * " + note);
            }
        }
        out.println();
        BitSet ordinals = new BitSet();
        shown.forEach(p -> ordinals.set(p.ordinal()));
        List<String> messages = report.messages(ordinals::get);
        if (!messages.isEmpty()) {
            out.println("messages:");
            messages.forEach(m -> out.println("  " + m));
            out.println();
        }
        List<String> findings = report.findings(ordinals::get);
        String where = shown.size() < c.packets().size() ? " in the frames shown" : "";
        out.println("findings" + where + ":" + (findings.isEmpty() ? " none (no gap, retransmission, duplicate, NAK, "
            + "lost response, bad ICRC or sequence error)" : ""));
        findings.forEach(f -> out.println("  " + f));
        out.println();
        summary(report);
    }

    private static String header(Connection c) {
        String a = "A " + c.a();
        String b = "B " + c.b();
        int gap = Math.max(1, ARROW + 2 - a.length() - b.length());
        return a + " ".repeat(gap) + b;
    }

    /**
     * One packet's line: {@code |--label-->|} from A, {@code |<--label--|} from B; a delayed packet's
     * shaft is wavy on its way ({@code ~}), a duplicated one's head double ({@code >>}).
     */
    String line(Packet p, int from) {
        NetworkFault fault = faults.get(p.frame());
        NetworkFault.Kind kind = fault == null ? null : fault.kind();
        boolean marked = kind == NetworkFault.Kind.DELAYED || kind == NetworkFault.Kind.DUPLICATED;
        String label = PacketText.label(p) + (marked ? " [" + kind.word + "]" : "");
        boolean twice = kind == NetworkFault.Kind.DUPLICATED;
        int dashes = Math.max(2, ARROW - label.length() - 6 - (twice ? 1 : 0));
        String shaft = (kind == NetworkFault.Kind.DELAYED ? "~" : "-").repeat(dashes);
        String arrow = from == 0
            ? "|-- " + label + " " + shaft + (twice ? ">>|" : ">|")
            : (twice ? "|<<" : "|<") + shaft + " " + label + " --|";
        return String.format(Locale.ROOT, "%7s %10s  %s", p.label(), Durations.relative(p.timeNs(), startNs), arrow);
    }

    /** The whole connection's, whatever packets the filters showed. */
    private void summary(Report report) {
        Connection c = report.connection();
        out.println("summary:");
        out.printf("  %-34s %8s %10s %8s %8s %5s %5s %5s %5s %4s %10s%n", "sender", "packets", "bytes", "messages",
            "retrans", "dups", "gaps", "ACKs", "NAKs", "RNR", "duration");
        for (int side = 0; side < 2; side++) {
            SideStats s = report.stats(side);
            if (s.packets == 0) {
                continue;
            }
            out.printf("  %-34s %8d %10d %8d %8d %5d %5d %5d %5d %4d %10s%n", (side == 0 ? "A " : "B ") + c.side(side),
                s.packets, s.bytes, s.messages, s.retransmissions, s.duplicates, s.gaps, s.acks, s.naks, s.rnrNaks,
                Durations.format(s.lastNs - s.firstNs));
            if (s.badIcrc > 0 || s.sequenceErrors > 0) {
                out.printf("  %-34s %d bad ICRC, %d opcode sequence errors%n", "", s.badIcrc, s.sequenceErrors);
            }
        }
        out.println();
    }
}
