package io.jroce.tools.explain;

import io.jroce.stack.wire.AethKind;
import io.jroce.stack.wire.AethSyndrome;

/**
 * RNR waits: an RNR NAK says the responder had no receive WQE for the request at its PSN; the
 * requester waits at least the timer it names (IBTA Vol. 1 9.7.5.2.8, Table 45) and sends that
 * PSN again. The wait is the time from the RNR NAK to that packet.
 */
final class RnrAnalyzer implements Analyzer {
    private final Packet[] pending = new Packet[2];

    @Override
    public void packet(Packet p, int from, Report report) {
        if (report.isCopy(p)) {
            return; // the wait runs from the RNR NAK the responder sent, not from its copy
        }
        if (p.aethKind() == AethKind.RNR_NAK) {
            long timer = AethSyndrome.rnrTimerNs(AethSyndrome.value(p.ext().aeth().syndrome()));
            report.note(p, "receiver not ready: no receive WQE for PSN " + p.psn() + "; the requester waits at least "
                + Durations.format(timer) + " and sends it again");
            pending[1 - from] = p;
            return;
        }
        Packet rnr = pending[from];
        if (p.isRequest() && rnr != null && p.psn() == rnr.psn()) {
            pending[from] = null;
            long timer = AethSyndrome.rnrTimerNs(AethSyndrome.value(rnr.ext().aeth().syndrome()));
            report.finding(p, "RNR wait of " + Durations.format(p.timeNs() - rnr.timeNs()) + " after the RNR NAK of frame "
                + rnr.label() + " (its timer asked for " + Durations.format(timer) + ")");
        }
    }

    @Override
    public void end(Report report) {
        for (Packet rnr : pending) {
            if (rnr != null) {
                report.openEnd(rnr, "frame " + rnr.label() + ": RNR NAK with no retry in the capture");
            }
        }
    }
}
