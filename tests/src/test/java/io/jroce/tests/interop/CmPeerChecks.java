package io.jroce.tests.interop;

import io.jroce.testcontainers.GuestResult;
import io.jroce.testcontainers.RxePeer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.jroce.testsupport.Tshark;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaEventChannel;

/**
 * The waits and checks the RDMA CM interop tests share: every wait is bounded, and a failure shows
 * the rxe guest's console.
 */
final class CmPeerChecks {
    /** Generous: a guest's emulated CPU is slow, and a lost CM message waits a retransmission (6 s). */
    static final long WAIT_S = 180;

    private CmPeerChecks() {
    }

    private static String console(RxePeer peer) {
        return "\n--- rxe:\n" + String.join("\n", peer.consoleLines());
    }

    /** The channel's next event, acknowledged, whatever its type. */
    static RdmaCmEvent next(RdmaEventChannel ch, RxePeer peer) throws InterruptedException {
        RdmaCmEvent e = ch.get(WAIT_S, TimeUnit.SECONDS);
        assertNotNull(e, "no event within " + WAIT_S + " s" + console(peer));
        e.ack();
        return e;
    }

    /** The channel's next event, acknowledged, which must be of {@code type}. */
    static RdmaCmEvent expect(RdmaEventChannel ch, RdmaCmEventType type, RxePeer peer) throws InterruptedException {
        RdmaCmEvent e = ch.get(WAIT_S, TimeUnit.SECONDS);
        assertNotNull(e, "no event within " + WAIT_S + " s, expected " + type + console(peer));
        e.ack();
        assertEquals(type, e.type(), e + console(peer));
        return e;
    }

    /** The next completion of {@code cq}. */
    static WorkCompletion completion(CompletionQueue cq, RxePeer peer) throws InterruptedException {
        WorkCompletion wc = new WorkCompletion();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
        while (!cq.poll(wc)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no completion within " + WAIT_S + " s" + console(peer));
            }
            Thread.sleep(1);
        }
        return wc;
    }

    /** No MAD from the kernel was dropped as malformed, unmatched or unexpected. */
    static void assertNoCmDrops(RdmaDevice dev) {
        Map<String, Long> c = dev.counters();
        for (String name : List.of("drop_bad_mad", "drop_unsupported_mad", "drop_no_mad_handler", "cm_drop_bad_mad",
            "cm_drop_unmatched", "cm_drop_unexpected")) {
            assertEquals(0L, c.get(name), name + ": " + c);
        }
    }

    /** The guest printed a line containing {@code fragment}. */
    static void assertLine(GuestResult r, String fragment) {
        assertTrue(r.output().stream().anyMatch(l -> l.contains(fragment)), "no \"" + fragment + "\" in\n" + r.console());
    }

    /** The CM messages of {@code pcap} in order, from the start, are {@code expected} (tshark's names). */
    static void assertMessages(Tshark tshark, Path pcap, List<String> expected) {
        try {
            List<String> cm = tshark.fields(pcap, "infiniband.mad.attributeid", "_ws.col.Info").stream()
                .map(l -> l.strip().replace("CM: ", "")).toList();
            assertEquals(expected, cm.subList(0, Math.min(cm.size(), expected.size())), "CM messages: " + cm);
        } catch (IOException | InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
