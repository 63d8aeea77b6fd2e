package io.jroce.tools.explain;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * Writes a connection's ladder as a Mermaid {@code sequenceDiagram}: a participant per end, an
 * arrow per packet (solid for requests, dotted for responses), the analysis as notes. What the
 * network did to a packet, known from event logs, is tagged on its arrow as on the terminal ladder:
 * a packet held back ends in Mermaid's open (async) arrowhead, {@code -)}, and is tagged
 * {@code [delayed]}; one delivered twice is tagged {@code [duplicated]} (Mermaid has no
 * double-headed arrow, and the copy is no packet of its own). A lost packet keeps its arrow: its
 * note says so. Mermaid reads {@code ;} and {@code #} specially in messages, so they are replaced.
 */
final class MermaidPrinter {
    private final PrintStream out;
    private final Map<Integer, NetworkFault> faults;

    MermaidPrinter(PrintStream out) {
        this(out, Map.of());
    }

    /** A printer that tags the arrows of the packets of {@code faults} (by frame) delayed or duplicated. */
    MermaidPrinter(PrintStream out, Map<Integer, NetworkFault> faults) {
        this.out = out;
        this.faults = faults;
    }

    void print(Report report, List<Packet> shown, long startNs) {
        Connection c = report.connection();
        out.println("sequenceDiagram");
        out.println("    participant A as " + clean(c.a().toString()));
        out.println("    participant B as " + clean(c.b().toString()));
        for (Packet p : shown) {
            int from = c.from(p);
            NetworkFault fault = faults.get(p.frame());
            NetworkFault.Kind kind = fault == null ? null : fault.kind();
            boolean marked = kind == NetworkFault.Kind.DELAYED || kind == NetworkFault.Kind.DUPLICATED;
            String head = kind == NetworkFault.Kind.DELAYED ? ")" : ">>";
            String arrow = (p.isRequest() ? "-" : "--") + head;
            out.println("    " + (from == 0 ? "A" : "B") + arrow + (from == 0 ? "B" : "A") + ": "
                + clean(p.label() + " " + Durations.relative(p.timeNs(), startNs) + " s " + PacketText.label(p)
                + (marked ? " [" + kind.word + "]" : "")));
            for (String note : report.notes(p)) {
                out.println("    Note over A,B: " + clean(note));
            }
        }
    }

    private static String clean(String s) {
        return s.replace(';', ',').replace('#', ' ');
    }
}
