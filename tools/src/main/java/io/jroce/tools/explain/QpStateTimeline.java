package io.jroce.tools.explain;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What each device's event log says about its QPs over time (docs/event-log.md): the QP state, the
 * requester's and the responder's PSNs, the transport timer and the retries left, so that the page
 * can show them as they stood when a packet went by. Built record by record, in each log's order.
 */
final class QpStateTimeline {
    /** One change: at {@code timeNs}, {@code field} of QP {@code qpn} of {@code device} became {@code value}. */
    private record Change(long timeNs, String device, int qpn, String field, String value) {
    }

    private final List<Change> changes = new ArrayList<>();
    private final long startNs;

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
        String name = record.path("name").asText();
        long t = record.path("time").asLong();
        JsonNode d = record.path("data");
        int qpn = d.path("qpn").asInt(-1);
        if (qpn < 0) {
            return;
        }
        switch (name) {
            case "roce:qp_state_updated" -> changes.add(new Change(t, device, qpn, "state", d.path("new").asText()));
            case "roce:psn_state_updated" -> {
                if ("requester".equals(d.path("side").asText())) {
                    changes.add(new Change(t, device, qpn, "requester", "requester: next PSN " + d.path("next_psn").asInt()
                        + ", oldest unacknowledged " + d.path("oldest_unacked_psn").asInt()));
                } else {
                    changes.add(new Change(t, device, qpn, "responder", "responder: expects PSN "
                        + d.path("expected_psn").asInt() + ", MSN " + d.path("msn").asInt()));
                }
            }
            case "roce:timer_set" -> changes.add(new Change(t, device, qpn, "timer", String.format(Locale.ROOT,
                "ACK timer: set at %s s for %.3f ms", Durations.relative(t, startNs), d.path("timeout_ns").asLong() / 1e6)));
            case "roce:timer_expired" -> changes.add(new Change(t, device, qpn, "timer",
                "ACK timer: expired at " + Durations.relative(t, startNs) + " s"));
            case "roce:retry" -> changes.add(new Change(t, device, qpn, "retries",
                "retries left: " + d.path("retries_left").asInt()));
            default -> {
                // not a state record
            }
        }
    }

    /**
     * Every QP's state as it stood at {@code timeNs} (the changes of that instant included), a line
     * each, devices and QPs in the order they first appear; empty when the logs say nothing yet.
     */
    List<String> at(long timeNs) {
        Map<String, Map<String, String>> qps = new LinkedHashMap<>();
        for (Change c : changes) {
            if (c.timeNs() <= timeNs) {
                qps.computeIfAbsent(String.format("%s QP 0x%06x", c.device(), c.qpn()), k -> new TreeMap<>())
                    .put(order(c.field()), c.value());
            }
        }
        List<String> lines = new ArrayList<>();
        qps.forEach((qp, fields) -> lines.add(qp + ": " + String.join("; ", fields.values())));
        return lines;
    }

    /** The fields in the order a line shows them: state, requester, responder, timer, retries. */
    private static String order(String field) {
        return switch (field) {
            case "state" -> "1";
            case "requester" -> "2";
            case "responder" -> "3";
            case "timer" -> "4";
            default -> "5";
        };
    }

    boolean isEmpty() {
        return changes.isEmpty();
    }
}
