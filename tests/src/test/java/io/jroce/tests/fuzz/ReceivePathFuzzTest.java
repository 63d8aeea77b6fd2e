package io.jroce.tests.fuzz;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.junit.jupiter.api.Timeout;

import io.jroce.verbs.QpState;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;

/**
 * Fuzzes the victim device's receive path (see the package documentation for the invariants and
 * {@link FuzzedDatagram} for the input format). Without {@code JAZZER_FUZZ} it replays the committed
 * corpus; with {@code JAZZER_FUZZ=1} it fuzzes for {@code jazzer.max_duration} (default below).
 */
class ReceivePathFuzzTest {
    /** Counters a datagram is counted in when the engine turns it away before any QP takes it. */
    private static final List<String> GATE_DROPS = List.of("drop_truncated", "drop_oversized", "drop_bad_icrc",
        "drop_unknown_opcode", "drop_bad_tver", "drop_bad_pad", "drop_bad_pkey", "drop_unknown_qpn", "drop_wrong_qp_type",
        "drop_wrong_qp_state", "drop_wrong_address", "drop_not_for_this_device");
    /** Time to let each datagram's consequences (responses, completions, timers) play out. */
    private static final long QUIESCE_NS = 1_000_000;

    // The suite's default timeout (3 min, junit-platform.properties) guards replayed inputs; a
    // fuzzing run (JAZZER_FUZZ=1) lasts maxDuration: keep the timeout above it.
    @FuzzTest(maxDuration = "5m")
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void receive(byte[] input) throws Exception {
        try (Population pop = new Population()) {
            long[] delivered = {0};
            pop.fabric.fault(d -> {
                if (Arrays.equals(d.dst(), pop.victimAddress)) {
                    delivered[0]++;
                }
                return true;
            });
            pop.fabric.runFor(QUIESCE_NS); // the setup sends nothing, but let any timer settle first
            long baseline = accounted(pop.victim.counters());
            List<FuzzedDatagram> datagrams = FuzzedDatagram.parse(input, pop);
            QpState[] before = states(pop);
            for (FuzzedDatagram d : datagrams) {
                pop.inject(d.packet(), d.source());
                pop.fabric.runFor(QUIESCE_NS);
                QpState[] after = states(pop);
                checkStateRule(pop, d, before, after);
                before = after;
                Map<String, Long> c = pop.victim.counters();
                if (c.getOrDefault("drop_internal_error", 0L) != 0) {
                    throw new AssertionError("the engine caught an exception (drop_internal_error) on " + describe(d, pop)
                        + "; counters " + c);
                }
            }
            List<String> changed = pop.memory.unexpectedChanges();
            if (!changed.isEmpty()) {
                throw new AssertionError("bytes changed outside any allowed range at " + changed);
            }
            Map<String, Long> c = pop.victim.counters();
            long accounted = accounted(c) - baseline;
            if (accounted != delivered[0]) {
                throw new AssertionError("the victim received " + delivered[0] + " datagrams but rcvd_pkts + gate drops"
                    + " count " + accounted + ": " + c);
            }
            long laterDrops = c.entrySet().stream().filter(e -> e.getKey().startsWith("drop_") && !GATE_DROPS.contains(e.getKey())
                && !e.getKey().equals("drop_tx_failed")).mapToLong(Map.Entry::getValue).sum();
            if (laterDrops > c.getOrDefault("rcvd_pkts", 0L)) {
                throw new AssertionError("more drops after a QP took the packet than packets taken: " + c);
            }
        }
    }

    private static long accounted(Map<String, Long> c) {
        long n = c.getOrDefault("rcvd_pkts", 0L);
        for (String drop : GATE_DROPS) {
            n += c.getOrDefault(drop, 0L);
        }
        return n;
    }

    private static QpState[] states(Population pop) {
        QpState[] s = new QpState[pop.qps.size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = pop.qps.get(i).state();
        }
        return s;
    }

    /**
     * A QP leaves RTS only for a packet with its QPN, from its peer's address (any address for UD),
     * with a PSN in its window: for a request, the half of the PSN space from its first expected PSN
     * on (IBTA 9.7.5.1.2; the input may have advanced it); for a response, the PSNs of the requests the
     * victim has outstanding (only its RC QP has: a SEND and a READ).
     */
    private static void checkStateRule(Population pop, FuzzedDatagram d, QpState[] before, QpState[] after) {
        for (int i = 0; i < after.length; i++) {
            if (before[i] != QpState.RTS || after[i] == QpState.RTS) {
                continue;
            }
            QueuePair qp = pop.qps.get(i);
            boolean ud = qp.type() == QpType.UD;
            boolean fromPeer = ud || Arrays.equals(d.source(), pop.peerAddress);
            boolean inWindow = ud || (d.isResponse()
                ? ((d.psn() - pop.firstSendPsn[i]) & 0xFFFFFF) < pop.outstandingPsns[i]
                : ((d.psn() - pop.firstRecvPsn[i]) & 0xFFFFFF) < (1 << 23));
            if (d.destQp() == qp.qpNum() && fromPeer && inWindow) {
                continue;
            }
            throw new AssertionError("QP " + i + " (" + qp.type() + ", qpn 0x" + Integer.toHexString(qp.qpNum()) + ") went "
                + before[i] + " -> " + after[i] + " on " + describe(d, pop));
        }
    }

    private static String describe(FuzzedDatagram d, Population pop) {
        List<String> parts = new ArrayList<>();
        parts.add("opcode 0x" + Integer.toHexString(d.opcode()));
        parts.add("dest qp 0x" + Integer.toHexString(d.destQp()));
        parts.add("psn 0x" + Integer.toHexString(d.psn()));
        parts.add(Arrays.equals(d.source(), pop.peerAddress) ? "from the peer"
            : Arrays.equals(d.source(), pop.victimAddress) ? "from the victim's own address" : "from a stranger");
        parts.add(d.packet().length + " bytes");
        return String.join(", ", parts);
    }
}
