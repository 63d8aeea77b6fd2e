package io.jroce.tools.explain;

import io.jroce.stack.wire.Psn;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The numbers explain reports, computed independently from tshark's raw fields: packets per
 * opcode, ACKs, NAKs and RNR NAKs (opcode 17 by the kind bits of the AETH syndrome), messages
 * (requests with a message-ending opcode whose PSN their flow had not carried before) and repeats
 * (requests whose PSN their flow had carried before, or that is behind the highest PSN it had
 * carried: retransmissions and duplicates, and a resent packet whose first transmission was lost
 * before the capture point, which fills a PSN gap). Copies of
 * responses, which explain counts as duplicates too, are not among them: none of the rxe captures
 * holds one (their repeated ACKs answer repeated requests), which the comparison so also checks.
 */
record CaptureCounts(Map<Integer, Integer> opcodes, int acks, int naks, int rnrNaks, int messages, int repeats) {
    /** Request opcodes that end a message (IBTA Vol. 1 9.2 Table 38): LAST, ONLY, READ request, atomics. */
    private static final Set<Integer> ENDS_MESSAGE = Set.of(0x02, 0x03, 0x04, 0x05, 0x08, 0x09, 0x0A, 0x0B, 0x0C,
        0x13, 0x14, 0x16, 0x17, 0x22, 0x23, 0x24, 0x25, 0x28, 0x29, 0x2A, 0x2B, 0x64, 0x65);
    private static final Set<Integer> REQUESTS = Set.of(0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09,
        0x0A, 0x0B, 0x0C, 0x13, 0x14, 0x16, 0x17, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2A,
        0x2B, 0x64, 0x65);
    private static final int ACKNOWLEDGE = 0x11;

    /** One packet as tshark decoded it: its flow (whatever names sender and receiving QP), opcode, PSN and AETH syndrome (-1: none). */
    record Row(String flow, int opcode, int psn, int syndrome) {
    }

    static CaptureCounts of(List<Row> rows) {
        Map<Integer, Integer> opcodes = new TreeMap<>();
        Set<String> seen = new HashSet<>();
        Map<String, Integer> highest = new HashMap<>();
        int acks = 0;
        int naks = 0;
        int rnr = 0;
        int messages = 0;
        int repeats = 0;
        for (Row r : rows) {
            opcodes.merge(r.opcode(), 1, Integer::sum);
            if (r.opcode() == ACKNOWLEDGE) {
                switch ((r.syndrome() >> 5) & 3) {
                    case 0 -> acks++;
                    case 1 -> rnr++;
                    case 3 -> naks++;
                    default -> { }
                }
            }
            if (REQUESTS.contains(r.opcode())) {
                Integer top = highest.get(r.flow());
                boolean behind = top != null && Psn.diff(r.psn(), top) <= 0;
                if (!behind) {
                    highest.put(r.flow(), r.psn());
                }
                boolean first = seen.add(r.flow() + "/" + r.psn());
                if (!first || behind) {
                    repeats++;
                }
                if (first && ENDS_MESSAGE.contains(r.opcode())) {
                    messages++;
                }
            }
        }
        return new CaptureCounts(opcodes, acks, naks, rnr, messages, repeats);
    }

    /** What explain printed, in the same terms. */
    static CaptureCounts of(Ladder ladder) {
        return new CaptureCounts(ladder.opcodes, ladder.total(Ladder.Row::acks), ladder.total(Ladder.Row::naks),
            ladder.total(Ladder.Row::rnrNaks), ladder.total(Ladder.Row::messages),
            ladder.total(Ladder.Row::retransmissions) + ladder.total(Ladder.Row::duplicates));
    }
}
