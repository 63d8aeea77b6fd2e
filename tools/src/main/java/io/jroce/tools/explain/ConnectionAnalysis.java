package io.jroce.tools.explain;

import java.util.List;

/**
 * Runs every analyser over one connection, in an order where each may read what the earlier ones
 * wrote (messages skip what the retransmission analysis marked as repeats).
 */
final class ConnectionAnalysis {
    private ConnectionAnalysis() {
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
