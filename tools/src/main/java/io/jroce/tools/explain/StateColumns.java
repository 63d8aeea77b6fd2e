package io.jroce.tools.explain;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The HTML ladder's state columns of one connection: beside each end's lane, a column for that
 * end's QP when the event logs tell of it, with a cell on each packet's row that holds what changed
 * in the QP's state since the row before (on the first row, all the logs had by then), a few words
 * per field. A row where nothing changed stays empty, so that the changes stand out. A last row,
 * with no packet, holds what changed after the last packet shown (up to the connection's next packet,
 * or to the end of the logs). The state is {@link QpStateTimeline}'s, the one fold of the logs; this
 * only compares one row with the next.
 */
final class StateColumns {
    private StateColumns() {
    }

    /**
     * The columns as the page's data: for each, the end it stands beside (0 for A, 1 for B), the QP's
     * name, for every packet of {@code shown} in order the lines of its cell (empty when nothing
     * changed), and the lines of the last row's cell ({@code after}). None when there is no timeline
     * (a capture) or no log tells of either end's QP.
     */
    static List<Map<String, Object>> of(Connection c, List<Packet> shown, QpStateTimeline states) {
        List<Map<String, Object>> columns = new ArrayList<>();
        if (states == null) {
            return columns;
        }
        for (int end = 0; end < 2; end++) {
            QpStateTimeline.Qp qp = states.qpAt(c.side(end));
            if (qp == null) {
                continue;
            }
            List<List<String>> cells = new ArrayList<>();
            Map<QpStateTimeline.Field, QpStateTimeline.Value> before = Map.of();
            for (Packet p : shown) {
                Map<QpStateTimeline.Field, QpStateTimeline.Value> now = states.of(qp, p.timeNs());
                cells.add(changed(before, now));
                before = now;
            }
            Map<String, Object> column = new LinkedHashMap<>();
            column.put("end", end);
            column.put("qp", qp.toString());
            column.put("cells", cells);
            column.put("after", changed(before, states.of(qp, endNs(c, shown))));
            columns.add(column);
        }
        return columns;
    }

    /** The last row's label: {@code after frame N}, N the last packet shown. */
    static String endRow(List<Packet> shown) {
        return "after frame " + shown.get(shown.size() - 1).label();
    }

    /**
     * The time the last row reaches: just before the connection's next packet after those shown
     * (whose row the changes of its own instant belong to), or the end of the logs.
     */
    static long endNs(Connection c, List<Packet> shown) {
        Packet last = shown.get(shown.size() - 1);
        int next = c.packets().indexOf(last) + 1;
        return next <= 0 || next >= c.packets().size() ? Long.MAX_VALUE
            : Math.max(last.timeNs(), c.packets().get(next).timeNs() - 1);
    }

    /**
     * The cell words of the fields whose value differs, in field order. Values are compared by their
     * full words, so a timer set again for as long (at a later time) shows as a change.
     */
    private static List<String> changed(Map<QpStateTimeline.Field, QpStateTimeline.Value> before,
        Map<QpStateTimeline.Field, QpStateTimeline.Value> now) {
        List<String> lines = new ArrayList<>();
        for (Map.Entry<QpStateTimeline.Field, QpStateTimeline.Value> e : now.entrySet()) {
            if (!e.getValue().equals(before.get(e.getKey()))) {
                lines.add(e.getValue().cell());
            }
        }
        return lines;
    }
}
