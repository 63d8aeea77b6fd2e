package io.jroce.tools.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.rnic.SoftRnic;
import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.stack.fault.FaultRule;
import io.jroce.stack.fault.PacketMatch;
import io.jroce.testsupport.PinnedText;
import io.jroce.testsupport.RcPair;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.WorkCompletion;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The pinned event logs of a DELAY and a DUPLICATE fault that explain's tests read: rnic-sim's
 * lost-middle run (a 3000-byte SEND from jroce0 to jroce1 on a seeded simulated fabric, docs/event-log.md)
 * with another rule. Each run logs the same bytes every time, equal to its pinned file;
 * {@code -Djroce.eventLog.write=true} rewrites the files.
 */
class FaultedEventLogsTest {
    static final Path DIR = Path.of("src/test/resources/io/jroce/tools/explain/event-log");
    /** The SEND's FIRST held back 500 ns: MIDDLE and LAST overtake it. */
    static final Path DELAYED_FIRST = DIR.resolve("delayed-first.jsonseq");
    /** The SEND's MIDDLE delivered twice. */
    static final Path DUPLICATED_MIDDLE = DIR.resolve("duplicated-middle.jsonseq");

    private static String delayedFirst() {
        return sendWith(FaultRule.delay(PacketMatch.psn(0x100).and(PacketMatch.requests()), 500).once()
            .named("hold PSN 0x100 500 ns"));
    }

    private static String duplicatedMiddle() {
        return sendWith(FaultRule.duplicate(PacketMatch.psn(0x101).and(PacketMatch.requests())).once()
            .named("copy PSN 0x101"));
    }

    @Test
    void theDelayedRunLogsThePinnedBytes() throws IOException {
        pinned(DELAYED_FIRST, delayedFirst(), delayedFirst());
    }

    @Test
    void theDuplicatedRunLogsThePinnedBytes() throws IOException {
        pinned(DUPLICATED_MIDDLE, duplicatedMiddle(), duplicatedMiddle());
    }

    private static void pinned(Path golden, String first, String second) throws IOException {
        assertEquals(first, second, "two runs of one seed, two logs");
        assertTrue(first.contains("\"name\":\"roce:fault_injected\""), first);
        PinnedText.assertPinned(golden, first, "jroce.eventLog.write", "the log");
    }

    /** One SEND of 3000 bytes from jroce0's QP (first PSN 0x100) to jroce1's on a fabric of seed 11 with {@code rule}: both logs. */
    private static String sendWith(FaultRule rule) {
        SimulatedFabric fabric = SimulatedFabric.builder().seed(11).build();
        fabric.faults().add(rule);
        ByteArrayOutputStream logA = new ByteArrayOutputStream();
        ByteArrayOutputStream logB = new ByteArrayOutputStream();
        try (RcPair run = new RcPair(
                SoftRnic.builder().name("jroce0").address("10.0.0.1").jmx(false).eventLog(logA).openOn(fabric),
                SoftRnic.builder().name("jroce1").address("10.0.0.2").jmx(false).eventLog(logB).openOn(fabric),
                4096, AccessFlags.LOCAL_WRITE, QpConnector.rc(), 0x100, 0x200)) {
            run.postReceive(2, 4096);
            run.send(1, 3000);
            WorkCompletion wc = new WorkCompletion();
            // virtual time: the fabric runs on this thread until A's SEND completes, never sleeping
            assertTrue(fabric.runUntil(() -> run.cqA.poll(wc), 60_000_000_000L), "the SEND never completed");
        }
        return logA.toString(StandardCharsets.UTF_8) + logB.toString(StandardCharsets.UTF_8);
    }
}
