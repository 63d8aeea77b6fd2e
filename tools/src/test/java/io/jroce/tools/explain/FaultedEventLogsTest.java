package io.jroce.tools.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.rnic.SoftRnic;
import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.stack.fault.FaultRule;
import io.jroce.stack.fault.PacketMatch;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.RemoteQp;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
        if (Boolean.getBoolean("jroce.eventLog.write")) {
            Files.writeString(golden, first);
        }
        assertEquals(Files.readString(golden), first,
            "the log changed: check it, then -Djroce.eventLog.write=true rewrites " + golden);
    }

    /** One SEND of 3000 bytes from jroce0's QP (first PSN 0x100) to jroce1's on a fabric of seed 11 with {@code rule}: both logs. */
    private static String sendWith(FaultRule rule) {
        SimulatedFabric fabric = SimulatedFabric.builder().seed(11).build();
        fabric.faults().add(rule);
        ByteArrayOutputStream logA = new ByteArrayOutputStream();
        ByteArrayOutputStream logB = new ByteArrayOutputStream();
        try (RdmaDevice a = SoftRnic.builder().name("jroce0").address("10.0.0.1").jmx(false).eventLog(logA).openOn(fabric);
             RdmaDevice b = SoftRnic.builder().name("jroce1").address("10.0.0.2").jmx(false).eventLog(logB).openOn(fabric);
             ProtectionDomain pdA = a.allocPd();
             ProtectionDomain pdB = b.allocPd();
             CompletionQueue cqA = a.createCq(4);
             CompletionQueue cqB = b.createCq(4);
             MemoryRegion mrA = pdA.allocateMemory(4096, AccessFlags.LOCAL_WRITE);
             MemoryRegion mrB = pdB.allocateMemory(4096, AccessFlags.LOCAL_WRITE);
             QueuePair qpA = pdA.createQp(new QpInitAttributes().cq(cqA));
             QueuePair qpB = pdB.createQp(new QpInitAttributes().cq(cqB))) {
            QpConnector.rc().connect(qpA, 0x100, RemoteQp.of(qpB, 0x200, b.gids().get(0)));
            QpConnector.rc().connect(qpB, 0x200, RemoteQp.of(qpA, 0x100, a.gids().get(0)));
            qpB.postRecv(new ReceiveWorkRequest().wrId(2).sgList(ScatterGatherEntry.of(mrB, 0, 4096)));
            qpA.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
                .sgList(ScatterGatherEntry.of(mrA, 0, 3000)));
            WorkCompletion wc = new WorkCompletion();
            // virtual time: the fabric runs on this thread until A's SEND completes, never sleeping
            assertTrue(fabric.runUntil(() -> cqA.poll(wc), 60_000_000_000L), "the SEND never completed");
        }
        return logA.toString(StandardCharsets.UTF_8) + logB.toString(StandardCharsets.UTF_8);
    }
}
