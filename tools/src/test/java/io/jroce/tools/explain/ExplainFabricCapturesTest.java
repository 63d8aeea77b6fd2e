package io.jroce.tools.explain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.stack.fault.FaultRule;
import io.jroce.stack.fault.PacketMatch;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.Operation;
import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;
import io.jroce.verbs.QpConnector;
import io.jroce.testsupport.PinnedText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Captures of the simulated fabric ({@code SimulatedFabric.Builder.pcap}, taken at the receivers'
 * side) of runs with one scripted fault each, explained from the capture alone: every fault the
 * script injected is found and explained, with what recovered from it. The fabric runs in virtual
 * time with a fixed seed ({@link FabricRun}), so each capture and its explanation are the same on
 * every run: the lost MIDDLE's and the held-back FIRST's are pinned whole. The same runs' event logs,
 * explained too, name the rule behind what the capture shows. A SEND of 3000 B at path MTU 1024 is
 * FIRST (PSN 256), MIDDLE (257) and LAST (258).
 */
class ExplainFabricCapturesTest {
    /** The pinned explanations; {@code -Djroce.explain.write=true} rewrites them. */
    private static final Path PINNED = Path.of("src/test/resources/io/jroce/tools/explain/fabric");

    @TempDir
    Path dir;

    /** A run's capture and logs as explain prints them, and the rule it ran with. */
    private record Explained(String captureText, Ladder capture, Ladder logs, FaultRule rule) {
    }

    /** Runs {@code script} on a fabric with {@code rule}, checks the rule acted once, and explains the capture and the logs. */
    private Explained run(String name, QpConnector connector, FaultRule rule, Consumer<FabricRun> script) throws Exception {
        FabricRun run = new FabricRun(dir, name, connector, rule);
        try (run) {
            script.accept(run);
        }
        if (rule != null) {
            assertEquals(1, rule.applied(), rule.toString());
        }
        String capture = explain(run.pcap).replace(dir + "/", "");
        System.out.println(capture); // the surefire report keeps the ladder of each run
        return new Explained(capture, new Ladder(capture), new Ladder(explain(run.logs)), rule);
    }

    private static String explain(Path file) throws Exception {
        CommandRunner r = CommandRunner.run("explain", file.toString());
        assertEquals(ExitStatus.OK, r.status(), r.transcript());
        return r.out();
    }

    /** B posts a receive, A sends 3000 B, the SEND completes. */
    private static void send3000(FabricRun run) {
        run.qps.postReceive(2, 4096);
        run.qps.send(1, 3000);
        run.completes();
    }

    private static void pinned(String name, String text) throws Exception {
        PinnedText.assertPinned(PINNED.resolve(name + ".txt"), text, "jroce.explain.write", "explain's output");
    }

    @Test
    void aLostMiddlePacketIsAGapThenASequenceErrorNakThenAGoBackN() throws Exception {
        Explained e = run("lost-middle", QpConnector.rc(),
            FaultRule.drop(PacketMatch.opcode(Opcode.RC_SEND_MIDDLE)).once().named("lose the MIDDLE"),
            ExplainFabricCapturesTest::send3000);
        assertEquals(List.of(
            "frame 2: PSN gap: PSN 257 never seen before this packet (lost before the capture point)",
            "frame 3: NAK PSN sequence error: the responder expected PSN 257 and got a later one; everything before it "
                + "is acknowledged, the requester goes back to it",
            "frame 4: retransmission triggered by the NAK PSN sequence error of frame 3; its first transmission was "
                + "never captured",
            "frame 5: retransmission, go-back-N after the NAK PSN sequence error of frame 3; first sent in frame 2"),
            e.capture().findings);
        assertTrue(e.capture().entry("6").noted("answers the SEND of frames 1..2 (3000 B) after 3.0 us"),
            e.captureText());
        // The capture cannot say why PSN 257 is missing; the sender's log can.
        Ladder.Entry lost = e.logs().only("the lost MIDDLE", x -> x.noted("LOST on the way"));
        assertTrue(lost.arrow().contains("RC_SEND_MIDDLE psn 257 "), lost.toString());
        assertTrue(lost.noted("the network dropped it (fault: lose the MIDDLE (seen 1, applied 1))"), lost.toString());
        pinned("lost-middle", e.captureText());
    }

    /**
     * Nothing tells the responder that the LAST is missing, so nothing is NAKed: A's ACK timer
     * (timeout 14, 67.109 ms, seen at the fabric's 100 us tick) runs out and A sends the message again
     * from its oldest unacknowledged PSN.
     */
    @Test
    void aLostLastPacketIsResentAfterAnAckTimeout() throws Exception {
        Explained e = run("lost-last", QpConnector.rc().timeout(14),
            FaultRule.drop(PacketMatch.opcode(Opcode.RC_SEND_LAST)).once().named("lose the LAST"),
            ExplainFabricCapturesTest::send3000);
        assertEquals(List.of(
            "frame 3: retransmission after a timeout (no NAK seen; the requester was silent for 67.201 ms); first "
                + "sent in frame 1",
            "frame 4: retransmission, go-back-N after a timeout (no NAK seen; the requester was silent for 67.201 ms); "
                + "first sent in frame 2"), e.capture().findings);
        assertTrue(e.capture().entry("5").arrow().contains("RC_SEND_LAST psn 258 "), e.captureText());
        assertEquals(0, e.capture().total(Ladder.Row::naks), e.captureText());
        assertTrue(e.logs().only("the lost LAST", x -> x.noted("LOST on the way")).noted("fault: lose the LAST"),
            e.logs().text);
    }

    /**
     * The FIRST held back 500 ns arrives after its MIDDLE and LAST, as the capture at the receivers'
     * side shows: B NAKed the MIDDLE (it expected PSN 256), took the late FIRST in sequence, and A,
     * hearing the NAK, sends all three again: B drops the resent FIRST as a duplicate, takes the MIDDLE
     * and LAST in sequence and acknowledges the message. The capture shows the NAK after the FIRST,
     * though B sent it before the FIRST arrived: each is stamped where it arrived.
     */
    @Test
    void aHeldBackFirstIsOvertakenThenNakedThenResent() throws Exception {
        Explained e = run("delayed-first", QpConnector.rc(),
            FaultRule.delay(PacketMatch.opcode(Opcode.RC_SEND_FIRST), 500).once().named("hold the FIRST"),
            ExplainFabricCapturesTest::send3000);
        assertFalse(e.captureText().contains("opcode sequence error"), e.captureText());
        assertEquals(List.of("RC_SEND_MIDDLE psn 257", "RC_SEND_LAST psn 258", "RC_SEND_FIRST psn 256"),
            List.of(words(e.capture().entry("1")), words(e.capture().entry("2")), words(e.capture().entry("3"))));
        assertEquals(List.of(
            "frame 3: out of order: fills the PSN gap, 500 ns after the requester's previous packet",
            "frame 4: NAK PSN sequence error: the responder expected PSN 256 and got a later one; everything before it "
                + "is acknowledged, the requester goes back to it",
            "frame 5: retransmission triggered by the NAK PSN sequence error of frame 4; first sent in frame 3",
            "frame 6: retransmission, go-back-N after the NAK PSN sequence error of frame 4; first sent in frame 1",
            "frame 7: retransmission, go-back-N after the NAK PSN sequence error of frame 4; first sent in frame 2"),
            e.capture().findings);
        assertTrue(e.capture().entry("3").noted("message: SEND of 3000 B in 3 packets (FIRST, 1 MIDDLE, LAST), PSNs "
            + "256..258, frames 1..3"), e.captureText());
        assertTrue(e.logs().entry("1").noted("DELAYED on the way: jroce0 sent it, the network held it back (fault: hold "
            + "the FIRST (seen 1, applied 1)); jroce1 received it 1.5 us after it was sent, overtaken by frames 2, 3"),
            e.logs().text);
        pinned("delayed-first", e.captureText());
    }

    @Test
    void aCopiedMiddleIsADuplicate() throws Exception {
        Explained e = run("duplicated-middle", QpConnector.rc(),
            FaultRule.duplicate(PacketMatch.opcode(Opcode.RC_SEND_MIDDLE)).once().named("copy the MIDDLE"),
            ExplainFabricCapturesTest::send3000);
        assertEquals(List.of("frame 3: duplicate of frame 2: the same PSN again 0 ns later with no NAK or timeout "
            + "before it (a copy made on the way)"), e.capture().findings);
        Ladder.Row a = e.capture().rows.get(0);
        assertEquals(List.of(1, 0, 1), List.of(a.duplicates(), a.retransmissions(), a.messages()), e.captureText());
        assertTrue(e.logs().entry("2").noted("jroce1 received it twice"), e.logs().text);
    }

    /**
     * The corrupted MIDDLE is on the wire with a flipped bit: its ICRC fails, B drops it, and what
     * follows is what a lost MIDDLE causes, the NAK and the go-back-N that recovers it.
     */
    @Test
    void aCorruptedMiddleFailsItsIcrcAndIsResentAfterTheNak() throws Exception {
        Explained e = run("corrupted-middle", QpConnector.rc(),
            FaultRule.corrupt(PacketMatch.opcode(Opcode.RC_SEND_MIDDLE)).once().named("corrupt the MIDDLE"),
            ExplainFabricCapturesTest::send3000);
        Ladder.Entry bad = e.capture().entry("2");
        assertTrue(bad.arrow().contains("RC_SEND_MIDDLE psn 257 "), bad.toString());
        assertTrue(bad.notes().get(0).matches("bad ICRC: 0x[0-9a-f]{8} on the wire does not match the headers and "
            + "payload; a receiver drops the packet"), bad.toString());
        assertTrue(e.capture().entry("4").arrow().contains("RC_ACKNOWLEDGE psn 257 msn 0 NAK PSN sequence error"),
            e.captureText());
        assertEquals(List.of("retransmission triggered by the NAK PSN sequence error of frame 4; first sent in frame 2, "
            + "whose bad ICRC made its receiver drop it"), e.capture().entry("5").notes());
        assertEquals(List.of("retransmission, go-back-N after the NAK PSN sequence error of frame 4; first sent in "
            + "frame 3"), e.capture().entry("6").notes());
        assertTrue(e.captureText().contains("1 bad ICRC, 0 opcode sequence errors"), e.captureText());
        assertTrue(e.logs().entry("2").noted("the network corrupted it, so its receiver dropped it on its ICRC (fault: "
            + "corrupt the MIDDLE"), e.logs().text);
    }

    /** B has no receive WQE for the SEND until 200 us after it: an RNR NAK, A's wait, the SEND again. */
    @Test
    void anRnrNakIsWaitedOutThenTheSendIsResent() throws Exception {
        Explained e = run("rnr", QpConnector.rc().minRnrTimer(14), null, run -> {
            run.qps.send(1, 64);
            run.fabric.runFor(200_000);
            run.qps.postReceive(2, 4096);
            run.completes();
        });
        assertTrue(e.capture().entry("2").arrow().contains("RC_ACKNOWLEDGE psn 256 msn 0 RNR NAK, timer 14 = 1.280 ms"),
            e.captureText());
        assertEquals(List.of("receiver not ready: no receive WQE for PSN 256; the requester waits at least 1.280 ms "
            + "and sends it again"), e.capture().entry("2").notes());
        assertEquals(List.of("retransmission triggered by the RNR NAK of frame 2; first sent in frame 1",
            "RNR wait of 1.299 ms after the RNR NAK of frame 2 (its timer asked for 1.280 ms)"),
            e.capture().entry("3").notes());
    }

    /** The second of four READ responses is lost: the third implies a NAK and A asks for the rest from the lost PSN. */
    @Test
    void aLostReadResponseIsFoundAndTheReadResumed() throws Exception {
        Explained e = run("lost-read-response", QpConnector.rc(),
            FaultRule.drop(PacketMatch.operation(Operation.RDMA_READ_RESPONSE)).occurrence(2).named("lose a response"),
            run -> {
                run.qps.read(3, 4096);
                run.completes();
            });
        assertEquals(List.of("lost READ response: PSN 257 of the READ of frame 1 never seen"),
            e.capture().entry("3").notes());
        assertEquals(List.of("retransmission triggered by an implied NAK: frame 4 answered PSN 259 while the READ of PSN "
            + "256 still owed PSN 257; its first transmission was never captured",
            "resumes the READ of frame 1 at PSN 257, the first response it lacks"), e.capture().entry("5").notes());
        assertTrue(e.capture().entry("8").noted("READ of frame 1 answered: 4096 B in 4 response packets"),
            e.captureText());
        assertTrue(e.logs().only("the lost response", x -> x.noted("LOST on the way")).arrow()
            .contains("RC_RDMA_READ_RESPONSE_MIDDLE psn 257 "), e.logs().text);
    }

    /** One seed, one script: the same capture, byte for byte. */
    @Test
    void aSeededRunCapturesTheSameBytesEveryTime() throws Exception {
        byte[][] captures = new byte[2][];
        for (int i = 0; i < 2; i++) {
            FabricRun run = new FabricRun(dir.resolve(Files.createDirectories(dir.resolve("run" + i))), "again",
                QpConnector.rc(), FaultRule.drop(PacketMatch.opcode(Opcode.RC_SEND_MIDDLE)).once());
            try (run) {
                send3000(run);
            }
            captures[i] = Files.readAllBytes(run.pcap);
        }
        assertArrayEquals(captures[0], captures[1]);
    }

    /** "RC_SEND_MIDDLE psn 257" of a ladder line. */
    private static String words(Ladder.Entry entry) {
        String[] w = entry.arrow().replaceAll("^[|<\\- ]+", "").split(" ");
        return w[0] + " " + w[1] + " " + w[2];
    }
}
