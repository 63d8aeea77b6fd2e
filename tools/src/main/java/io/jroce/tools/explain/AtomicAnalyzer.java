package io.jroce.tools.explain;

import io.jroce.stack.wire.Operation;
import java.util.HashMap;
import java.util.Map;

/**
 * Pairs each atomic request (COMPARE SWAP, FETCH ADD) with the ATOMIC ACKNOWLEDGE of the same PSN
 * and says what the target held before; a repeated request answered again is answered from the
 * responder's replay record, not executed twice.
 */
final class AtomicAnalyzer implements Analyzer {
    @SuppressWarnings("unchecked")
    private final Map<Integer, Packet>[] requests = new Map[] {new HashMap<Integer, Packet>(), new HashMap<Integer, Packet>()};
    @SuppressWarnings("unchecked")
    private final Map<Integer, Packet>[] answered = new Map[] {new HashMap<Integer, Packet>(), new HashMap<Integer, Packet>()};

    @Override
    public void packet(Packet p, int from, Report report) {
        Operation op = p.operation();
        if (op == Operation.COMPARE_SWAP || op == Operation.FETCH_ADD) {
            requests[from].putIfAbsent(p.psn(), p);
        } else if (op == Operation.ATOMIC_ACKNOWLEDGE && !report.isCopy(p)) {
            int requester = 1 - from;
            Packet request = requests[requester].get(p.psn());
            if (request == null) {
                report.finding(p, "atomic acknowledge for no atomic request in the capture");
                return;
            }
            Packet before = answered[requester].put(p.psn(), p);
            String value = p.ext().atomicAck() == null ? "" : String.format(": the target held 0x%x before",
                p.ext().atomicAck());
            if (before != null) {
                report.note(p, "answers the " + request.info().name() + " of frame " + request.label() + " again"
                    + value + " (from the responder's replay record, first answered in frame " + before.label() + ")");
            } else {
                report.note(p, "answers the " + request.info().name() + " of frame " + request.label() + " after "
                    + Durations.format(p.timeNs() - request.timeNs()) + value);
            }
        }
    }
}
