package io.jroce.tools.explain;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;
import java.util.function.Supplier;

/**
 * What the analysers found in one connection: notes attached to packets (printed under their
 * ladder line), findings (printed after the ladder, in frame order), and the counts of the
 * per-QP summary. Analysers run in a fixed order and may read what earlier ones wrote.
 */
final class Report {
    /** One finding, tied to the packet that revealed it. */
    record Finding(int ordinal, String text) {
    }

    private final Connection connection;
    private final Map<Integer, List<Supplier<String>>> notes = new HashMap<>();
    private final List<Finding> findings = new ArrayList<>();
    private final List<Finding> messages = new ArrayList<>();
    private final SideStats[] stats = {new SideStats(), new SideStats()};
    /** Requests that carry a PSN their sender had sent before, or that came after later ones. */
    private final Set<Integer> repeats = new HashSet<>();
    /** Repeats whose PSN the capture had not seen before: they fill a PSN gap. */
    private final Set<Integer> gapFills = new HashSet<>();
    /** Requests that came right after a PSN gap, with the gap's first PSN. */
    private final Map<Integer, Integer> afterGap = new HashMap<>();
    /** Responses that repeat an earlier one with no request to answer: copies made on the way. */
    private final Set<Integer> copies = new HashSet<>();

    /** READ requests by ordinal, and the response that completed each. */
    private final Map<Integer, Packet> readsAnswered = new HashMap<>();

    Report(Connection connection) {
        this.connection = connection;
    }

    Connection connection() {
        return connection;
    }

    /** Adds a note under {@code p}'s ladder line. */
    void note(Packet p, String text) {
        note(p, () -> text);
    }

    /** A note whose text is made when the ladder is printed: what it describes may still grow (a message's resent packets). */
    void note(Packet p, Supplier<String> text) {
        notes.computeIfAbsent(p.ordinal(), k -> new ArrayList<>()).add(text);
    }

    /** Adds a note under {@code p} and the same text, with the frame, to the findings. */
    void finding(Packet p, String text) {
        note(p, text);
        findings.add(new Finding(p.ordinal(), "frame " + p.label() + ": " + text));
    }

    /** A line of the list of messages, ordered by the message's first packet {@code p}. */
    void message(Packet p, String text) {
        messages.add(new Finding(p.ordinal(), text));
    }

    /** A finding that belongs under no single ladder line (something the capture ends without). */
    void openEnd(Packet p, String text) {
        findings.add(new Finding(p.ordinal(), text));
    }

    List<String> notes(Packet p) {
        return notes.getOrDefault(p.ordinal(), List.of()).stream().map(Supplier::get).toList();
    }

    /** The findings tied to the packets {@code shown} accepts (by ordinal), in capture order. */
    List<String> findings(IntPredicate shown) {
        return sorted(findings, shown);
    }

    /** The messages whose first packet {@code shown} accepts, in capture order. */
    List<String> messages(IntPredicate shown) {
        return sorted(messages, shown);
    }

    private static List<String> sorted(List<Finding> list, IntPredicate shown) {
        List<Finding> sorted = new ArrayList<>(list);
        sorted.sort((x, y) -> Integer.compare(x.ordinal(), y.ordinal())); // stable: same packet keeps its order
        return sorted.stream().filter(f -> shown.test(f.ordinal())).map(Finding::text).toList();
    }

    SideStats stats(int side) {
        return stats[side];
    }

    /** Records that {@code lastResponse} brought the last response PSN the READ {@code request} lacked. */
    void readAnswered(Packet request, Packet lastResponse) {
        readsAnswered.put(request.ordinal(), lastResponse);
    }

    /** The response that completed READ {@code request}, or null. */
    Packet readAnsweredBy(Packet request) {
        return readsAnswered.get(request.ordinal());
    }

    void markRepeat(Packet p) {
        repeats.add(p.ordinal());
    }

    boolean isRepeat(Packet p) {
        return repeats.contains(p.ordinal());
    }

    void markGapFill(Packet p) {
        gapFills.add(p.ordinal());
    }

    boolean isGapFill(Packet p) {
        return gapFills.contains(p.ordinal());
    }

    /** Records that request {@code p} came right after a PSN gap that begins at {@code firstMissing}. */
    void markAfterGap(Packet p, int firstMissing) {
        afterGap.put(p.ordinal(), firstMissing);
    }

    /** The first PSN of the gap right before request {@code p}, or null when its PSN followed on. */
    Integer gapBefore(Packet p) {
        return afterGap.get(p.ordinal());
    }

    void markCopy(Packet p) {
        copies.add(p.ordinal());
    }

    /** Whether response {@code p} is a copy of an earlier one made on the way: the response analysers skip it. */
    boolean isCopy(Packet p) {
        return copies.contains(p.ordinal());
    }
}
