package io.jroce.tools.explain;

import java.io.PrintStream;
import java.util.List;

/**
 * Writes a connection's ladder as a Mermaid {@code sequenceDiagram}: a participant per end, an
 * arrow per packet (solid for requests, dotted for responses), the analysis as notes. Mermaid
 * reads {@code ;} and {@code #} specially in messages, so they are replaced.
 */
final class MermaidPrinter {
    private final PrintStream out;

    MermaidPrinter(PrintStream out) {
        this.out = out;
    }

    void print(Report report, List<Packet> shown, long startNs) {
        Connection c = report.connection();
        out.println("sequenceDiagram");
        out.println("    participant A as " + clean(c.a().toString()));
        out.println("    participant B as " + clean(c.b().toString()));
        for (Packet p : shown) {
            int from = c.from(p);
            String arrow = p.isRequest() ? "->>" : "-->>";
            out.println("    " + (from == 0 ? "A" : "B") + arrow + (from == 0 ? "B" : "A") + ": "
                + clean(p.label() + " " + Durations.relative(p.timeNs(), startNs) + " s " + PacketText.label(p)));
            for (String note : report.notes(p)) {
                out.println("    Note over A,B: " + clean(note));
            }
        }
    }

    private static String clean(String s) {
        return s.replace(';', ',').replace('#', ' ');
    }
}
