package io.jroce.tools.explain;

/** Counts what each side put on the wire and flags packets whose ICRC does not verify (IBTA Annex A17). */
final class WireAnalyzer implements Analyzer {
    @Override
    public void packet(Packet p, int from, Report report) {
        report.stats(from).sent(p);
        if (!p.icrcOk()) {
            report.stats(from).badIcrc++;
            report.finding(p, p.roce() == null
                ? "bad ICRC: its receiver's log says the ICRC did not match the headers and payload; it dropped the packet"
                : String.format("bad ICRC: 0x%08x on the wire does not match the headers and payload;"
                    + " a receiver drops the packet", p.roce().icrc()));
        }
    }
}
