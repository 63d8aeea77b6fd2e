package io.jroce.tools.explain;

import java.util.List;
import java.util.Set;

/**
 * Runs every analyser over one connection, in an order where each may read what the earlier ones
 * wrote (messages skip what the retransmission analysis marked as repeats).
 */
final class ConnectionAnalysis {
    private ConnectionAnalysis() {
    }

    /**
     * The analysis of what arrived: packets lost on the way ({@code lost}, frame numbers) are left
     * out, as the receiver never saw them; the connection itself keeps them, to be drawn.
     */
    static Report analyseArrived(Connection c, Set<Integer> lost) {
        if (lost.isEmpty()) {
            return analyse(c);
        }
        return analyse(new Connection(c.number(), c.transport(), c.a(), c.b(),
            c.packets().stream().filter(p -> !lost.contains(p.frame())).toList(), c.fromB()));
    }

    static Report analyse(Connection c) {
        List<Analyzer> analyzers = List.of(new WireAnalyzer(), new RetransmissionAnalyzer(), new AckAnalyzer(),
            new RnrAnalyzer(), new ReadAnalyzer(), new AtomicAnalyzer(), new MessageAnalyzer());
        Report report = new Report(c);
        for (Packet p : c.packets()) {
            int from = c.from(p);
            for (Analyzer a : analyzers) {
                a.packet(p, from, report);
            }
        }
        analyzers.forEach(a -> a.end(report));
        return report;
    }
}
