package io.jroce.tools.explain;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the network did to one sent packet, as the event logs tell it (docs/event-log.md): lost it
 * (a DROP or CORRUPT marker, or a receiver's log that never got it), held it back (DELAY) or
 * delivered it twice (DUPLICATE). The ladders draw each kind its own way; the notes say what
 * happened, with the fault rule. A packet both held back and copied is drawn as the first kind of
 * {@link Kind}'s order it had, and has both notes.
 *
 * @param kind what happened (the first in {@link Kind}'s order, when several did)
 * @param notes the words under the packet, one note per fault
 * @param arrivedNs for a delayed packet whose receiver kept a log, when it arrived; -1 otherwise
 */
record NetworkFault(Kind kind, List<String> notes, long arrivedNs) {
    /** Not known when (or whether) the packet arrived. */
    static final long UNKNOWN = -1;

    /** What the network did. */
    enum Kind {
        LOST("lost"), DELAYED("delayed"), DUPLICATED("duplicated");

        /** The word an arrow is tagged with and the page's data names it by. */
        final String word;

        Kind(String word) {
            this.word = word;
        }
    }

    /** {@code frames} lost, with no note of their own (a lesson's, whose notes say why). */
    static Map<Integer, NetworkFault> lost(Set<Integer> frames) {
        return frames.stream().collect(Collectors.toUnmodifiableMap(f -> f, f -> new NetworkFault(Kind.LOST, List.of(),
            UNKNOWN)));
    }

    /** The frames of {@code faults} that were lost: drawn crossed out, left out of the analysis. */
    static Set<Integer> lost(Map<Integer, NetworkFault> faults) {
        return faults.entrySet().stream().filter(e -> e.getValue().kind() == Kind.LOST).map(Map.Entry::getKey)
            .collect(Collectors.toUnmodifiableSet());
    }
}
