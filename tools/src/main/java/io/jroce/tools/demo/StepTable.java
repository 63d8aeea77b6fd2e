package io.jroce.tools.demo;

import java.io.PrintStream;

/** Prints the demo's table, one row per step as soon as it is done. */
final class StepTable {
    private static final String ROW = "%3s  %-20s %8s  %-20s %-27s %12s %12s %7s  %s%n";
    private final PrintStream out;
    private final String requester;
    private final String responder;

    StepTable(PrintStream out, String requester, String responder) {
        this.out = out;
        this.requester = requester;
        this.responder = responder;
    }

    void header() {
        out.println(String.format(ROW, "", "", "", requester + " completion", responder + " completion",
            requester + " pkts", responder + " pkts", "", "").stripTrailing());
        out.printf(ROW, "#", "operation", "bytes", "(requester)", "(responder)", "sent/rcvd", "sent/rcvd", "ms",
            "result");
    }

    void row(int number, DemoStep step, StepOutcome o) {
        out.printf(ROW, number, step.opcode(), step.bytes(), o.requesterWc(), o.responderWc(),
            o.traffic().requester().packets(), o.traffic().responder().packets(),
            String.format("%.1f", o.elapsedNs() / 1e6), o.verified() ? o.result() : "FAILED");
    }
}
