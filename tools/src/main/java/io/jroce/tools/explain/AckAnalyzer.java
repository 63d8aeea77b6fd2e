package io.jroce.tools.explain;

import io.jroce.stack.wire.AethKind;
import io.jroce.stack.wire.Operation;

/**
 * Counts each side's ACKs, NAKs and RNR NAKs (ACKNOWLEDGE packets only, as tshark's opcode 17),
 * explains fatal NAKs, and marks an ACK that repeats the previous one (the responder answering a
 * duplicate request, IBTA Vol. 1 9.7).
 */
final class AckAnalyzer implements Analyzer {
    private final Packet[] previous = new Packet[2];

    @Override
    public void packet(Packet p, int from, Report report) {
        if (p.operation() != Operation.ACKNOWLEDGE) {
            return;
        }
        AethKind kind = p.aethKind();
        SideStats s = report.stats(from);
        switch (kind) {
            case ACK -> s.acks++;
            case NAK -> s.naks++;
            case RNR_NAK -> s.rnrNaks++;
            default -> report.finding(p, "AETH with the reserved syndrome kind 10b: a requester drops it");
        }
        if (report.isCopy(p)) {
            return; // counted, as tshark counts it; its finding says it is a copy of the one before
        }
        String consequence = AethText.consequence(p.ext().aeth().syndrome());
        if (consequence != null) {
            report.finding(p, AethText.syndrome(p.ext().aeth().syndrome()) + ": " + consequence);
        } else if (kind == AethKind.NAK) {
            report.finding(p, "NAK PSN sequence error: the responder expected PSN " + p.psn()
                + " and got a later one; everything before it is acknowledged, the requester goes back to it");
        }
        Packet before = previous[from];
        if (kind == AethKind.ACK && before != null && before.aethKind() == AethKind.ACK && before.psn() == p.psn()
            && before.ext().aeth().msn() == p.ext().aeth().msn()) {
            report.note(p, "the same ACK as frame " + before.label() + ": the responder answers a repeated request");
        }
        previous[from] = p;
    }
}
