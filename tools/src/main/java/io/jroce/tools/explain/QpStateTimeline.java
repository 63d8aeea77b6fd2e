package io.jroce.tools.explain;

import com.fasterxml.jackson.databind.JsonNode;
import io.jroce.verbs.Gid;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What each device's event log says about its QPs over time (docs/event-log.md): the QP state, the
 * requester's and the responder's PSNs, the transport timer and the retries left, so that the page
 * can show them as they stood when a packet went by (a line per QP in the side panel, a few words
 * per changed field in the ladder's state columns). Built record by record, in each log's order;
 * read in time order, the changes applied up to the time asked.
 */
final class QpStateTimeline {
    /** What a change sets, in the order a QP's line (and a column's cell) shows it. */
    enum Field { STATE, REQUESTER, RESPONDER, TIMER, RETRIES }

    /** A QP as the logs name it: the device whose log tells of it, and its number. */
    record Qp(String device, int qpn) {
        @Override
        public String toString() {
            return String.format("%s QP 0x%06x", device, qpn);
        }
    }

    /**
     * One field's value: the words of the side panel's line, which say everything (a timer set
     * again for as long differs in when), and the few words a ladder column has room for.
     */
    record Value(String words, String cell) {
    }

    /** One change: at {@code timeNs}, {@code field} of {@code qp} became {@code value}. */
    private record Change(long timeNs, Qp qp, Field field, Value value) {
    }

    private final List<Change> changes = new ArrayList<>();
    private final long startNs;
    /** The device that has each GID, from the logs' headers: a connection's end finds its QP by it. */
    private final Map<Gid, String> deviceOfGid = new HashMap<>();
    /** The state after the first {@link #applied} changes in time order, QPs in the order they appeared. */
    private final Map<Qp, EnumMap<Field, Value>> current = new LinkedHashMap<>();
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

    /** Notes that {@code device} has {@code gid} (its log's header says so). */
    void address(Gid gid, String device) {
        deviceOfGid.put(gid, device);
    }

    /** Takes {@code record} of {@code device}'s log if it is one of the state records; ignores the rest. */
    void add(String device, JsonNode record) {
        long t = record.path("time").asLong();
        JsonNode d = record.path("data");
        int qpn = d.path("qpn").asInt(-1);
        if (qpn < 0) {
            return;
        }
        Qp qp = new Qp(device, qpn);
        switch (record.path("name").asText()) {
            case "roce:qp_state_updated" -> {
                String state = d.path("new").asText();
                add(t, qp, Field.STATE, new Value(state, state));
            }
            case "roce:psn_state_updated" -> {
                if ("requester".equals(d.path("side").asText())) {
                    int next = d.path("next_psn").asInt();
                    int unacked = d.path("oldest_unacked_psn").asInt();
                    add(t, qp, Field.REQUESTER, new Value("requester: next PSN " + next + ", oldest unacknowledged "
                        + unacked, "next " + next + " / unacked " + unacked));
                } else {
                    int expected = d.path("expected_psn").asInt();
                    int msn = d.path("msn").asInt();
                    add(t, qp, Field.RESPONDER, new Value("responder: expects PSN " + expected + ", MSN " + msn,
                        "expects " + expected + " / MSN " + msn));
                }
            }
            case "roce:timer_set" -> {
                long timeout = d.path("timeout_ns").asLong();
                add(t, qp, Field.TIMER, new Value(String.format(Locale.ROOT, "%s: set at %s s for %.3f ms", timer(d),
                    Durations.relative(t, startNs), timeout / 1e6), timer(d) + " " + Durations.format(timeout)));
            }
            case "roce:timer_expired" -> add(t, qp, Field.TIMER, new Value(timer(d) + ": expired at "
                + Durations.relative(t, startNs) + " s", timer(d) + " expired"));
            case "roce:retry" -> {
                int left = d.path("retries_left").asInt();
                add(t, qp, Field.RETRIES, new Value("retries left: " + left, "retries left " + left));
            }
            default -> {
                // not a state record
            }
        }
    }

    /** The timer a record names: the transport timer ("ack") or an RNR NAK's wait ("rnr"). */
    private static String timer(JsonNode data) {
        return "rnr".equals(data.path("timer").asText()) ? "RNR timer" : "ACK timer";
    }

    private void add(long timeNs, Qp qp, Field field, Value value) {
        if (!changes.isEmpty() && changes.get(changes.size() - 1).timeNs() > timeNs) {
            sorted = false; // the next device's log starts again from its first record
        }
        changes.add(new Change(timeNs, qp, field, value));
    }

    /**
     * Every QP's state as it stood at {@code timeNs} (the changes of that instant included), a line
     * each, QPs in the order they first appear; empty when the logs say nothing yet.
     */
    List<String> at(long timeNs) {
        applyUpTo(timeNs);
        List<String> lines = new ArrayList<>();
        current.forEach((qp, fields) -> lines.add(qp + ": "
            + String.join("; ", fields.values().stream().map(Value::words).toList())));
        return lines;
    }

    /** The fields of {@code qp} as they stood at {@code timeNs}, as {@link #at} has them; empty when none yet. */
    Map<Field, Value> of(Qp qp, long timeNs) {
        applyUpTo(timeNs);
        EnumMap<Field, Value> fields = current.get(qp);
        return fields == null ? new EnumMap<>(Field.class) : new EnumMap<>(fields);
    }

    /**
     * The QP at {@code side} of a connection, or null when no log tells of it (its device kept no
     * log, or its QPN was never captured, or the log has no state record of it).
     */
    Qp qpAt(Side side) {
        String device = deviceOfGid.get(Gid.of(side.endpoint().address16()));
        if (device == null || side.qpn() == Side.UNKNOWN_QPN) {
            return null;
        }
        Qp qp = new Qp(device, side.qpn());
        return changes.stream().anyMatch(c -> c.qp().equals(qp)) ? qp : null;
    }

    /**
     * Applies the changes up to {@code timeNs}. Asked in rising time (a connection's packets), each
     * change is applied once; a time before the last one asked starts again from the first change.
     */
    private void applyUpTo(long timeNs) {
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
    }
}
