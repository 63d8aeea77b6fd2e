package io.jroce.tools.pingpong;

import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.VerbsException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What a twin says of its own side when its run fails (the peer stopped answering, a completion
 * came with an error): how far the loop got, each QP's state and PSNs, the device's counters that
 * moved. A ping-pong that stops with nothing unacknowledged on jroce's side and the peer's last
 * request answered points at the peer; one with jroce's request still unacknowledged and retries
 * counted points at the path. ibv_*_pingpong prints none of this: these lines follow the tool's own.
 */
final class StallReport {
    private StallReport() {
    }

    /**
     * The report's lines.
     *
     * @param progress how far the loop got
     * @param qps the twin's QPs
     * @param counters the device's counters ({@link io.jroce.verbs.RdmaDevice#counters()})
     * @return one line for the loop, one per QP, one for the counters that are not zero
     */
    static List<String> lines(String progress, List<QueuePair> qps, Map<String, Long> counters) {
        List<String> lines = new ArrayList<>();
        lines.add("jroce's side: " + progress);
        for (QueuePair qp : qps) {
            lines.add(qpLine(qp));
        }
        String moved = new TreeMap<>(counters).entrySet().stream().filter(c -> c.getValue() != 0)
            .map(c -> c.getKey() + "=" + c.getValue()).collect(Collectors.joining(" "));
        lines.add("device counters: " + (moved.isEmpty() ? "all zero" : moved));
        return lines;
    }

    private static String qpLine(QueuePair qp) {
        try {
            QpAttributes a = qp.query();
            // the names rdma-core's `rdma res show qp` prints for rxe, to set both sides side by side
            return String.format("QP 0x%06x: %s, sq-psn 0x%06x (the next it sends), rq-psn 0x%06x (the next it expects)",
                qp.qpNum(), a.state(), a.sqPsn(), a.rqPsn());
        } catch (VerbsException e) {
            return String.format("QP 0x%06x: cannot be queried (%s)", qp.qpNum(), e.getMessage());
        }
    }
}
