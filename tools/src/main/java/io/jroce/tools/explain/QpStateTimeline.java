package io.jroce.tools.explain;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What each device's event log says about its QPs over time (docs/event-log.md): the QP state, the
 * requester's and the responder's PSNs, the transport timer and the retries left, so that the page
 * can show them as they stood when a packet went by. Built record by record, in each log's order;
 * read in time order, the changes applied up to the time asked.
 */
final class QpStateTimeline {
    /** What a change sets, in the order a QP's line shows it. */
    private enum Field { STATE, REQUESTER, RESPONDER, TIMER, RETRIES }

    /** One change: at {@code timeNs}, {@code field} of the QP named {@code qp} became {@code value}. */
    private record Change(long timeNs, String qp, Field field, String value) {
    }

    private final List<Change> changes = new ArrayList<>();
    private final long startNs;
    /** The state after the first {@link #applied} changes in time order, QPs in the order they appeared. */
    private final Map<String, EnumMap<Field, String>> current = new LinkedHashMap<>();
    private int applied;
    private long appliedUpTo = Long.MIN_VALUE;
    private boolean sorted = true;

    /**
     * An empty timeline.
     *
     * @param startNs the time relative times count from
     */
    QpStateTimeline(long startNs) {
        this.startNs = startNs;
    }

    /** Takes {@code record} of {@code device}'s log if it is one of the state records; ignores the rest. */
    void add(String device, JsonNode record) {
        long t = record.path("time").asLong();
        JsonNode d = record.path("data");
        int qpn = d.path("qpn").asInt(-1);
        if (qpn < 0) {
            return;
        }
        String qp = String.format("%s QP 0x%06x", device, qpn);
        switch (record.path("name").asText()) {
            case "roce:qp_state_updated" -> add(t, qp, Field.STATE, d.path("new").asText());
            case "roce:psn_state_updated" -> {
                if ("requester".equals(d.path("side").asText())) {
                    add(t, qp, Field.REQUESTER, "requester: next PSN " + d.path("next_psn").asInt()
                        + ", oldest unacknowledged " + d.path("oldest_unacked_psn").asInt());
                } else {
                    add(t, qp, Field.RESPONDER, "responder: expects PSN " + d.path("expected_psn").asInt() + ", MSN "
                        + d.path("msn").asInt());
                }
            }
            case "roce:timer_set" -> add(t, qp, Field.TIMER, String.format(Locale.ROOT, "%s: set at %s s for %.3f ms",
                timer(d), Durations.relative(t, startNs), d.path("timeout_ns").asLong() / 1e6));
            case "roce:timer_expired" -> add(t, qp, Field.TIMER, timer(d) + ": expired at " + Durations.relative(t, startNs)
                + " s");
            case "roce:retry" -> add(t, qp, Field.RETRIES, "retries left: " + d.path("retries_left").asInt());
            default -> {
                // not a state record
            }
        }
    }

    /** The timer a record names: the transport timer ("ack") or an RNR NAK's wait ("rnr"). */
    private static String timer(JsonNode data) {
        return "rnr".equals(data.path("timer").asText()) ? "RNR timer" : "ACK timer";
    }

    private void add(long timeNs, String qp, Field field, String value) {
        if (!changes.isEmpty() && changes.get(changes.size() - 1).timeNs() > timeNs) {
            sorted = false; // the next device's log starts again from its first record
        }
        changes.add(new Change(timeNs, qp, field, value));
    }

    /**
     * Every QP's state as it stood at {@code timeNs} (the changes of that instant included), a line
     * each, QPs in the order they first appear; empty when the logs say nothing yet. Asked in rising
     * time (a connection's packets), each change is applied once; a time before the last one asked
     * starts again from the first change.
     */
    List<String> at(long timeNs) {
        if (!sorted) {
            changes.sort(Comparator.comparingLong(Change::timeNs)); // stable: each log's order kept
            sorted = true;
        }
        if (timeNs < appliedUpTo) {
            current.clear();
            applied = 0;
        }
        appliedUpTo = timeNs;
        for (; applied < changes.size() && changes.get(applied).timeNs() <= timeNs; applied++) {
            Change c = changes.get(applied);
            current.computeIfAbsent(c.qp(), k -> new EnumMap<>(Field.class)).put(c.field(), c.value());
        }
        List<String> lines = new ArrayList<>();
        current.forEach((qp, fields) -> lines.add(qp + ": " + String.join("; ", fields.values())));
        return lines;
    }
}
