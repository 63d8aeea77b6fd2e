package io.jroce.tools.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.stack.fault.FaultRule;
import io.jroce.stack.fault.PacketMatch;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.Operation;
import io.jroce.verbs.QpConnector;
import io.jroce.tools.CommandRunner;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Captures of runs with a scripted fault: each fault the script injected is found in the capture
 * and explained with its cause. The runs go over UDP loopback on the real clock, so the number of
 * packets around a fault may vary (an extra timeout now and then); what is asserted is what the
 * fault makes certain. The same faults on the simulated fabric, in virtual time and pinned, are
 * {@link ExplainFabricCapturesTest}'s.
 */
class ExplainFaultedRunsTest {
    @TempDir
    Path dir;

    /** What a faulted run does once its devices are open: post work requests, wait for a fault to act. */
    @FunctionalInterface
    private interface Script {
        void run(FaultedRun run) throws Exception;
    }

    /**
     * Opens a run with {@code fault} added to its policies (null: none), lets {@code script} post
     * its work, waits for A's completion, checks the fault acted once, and explains A's capture.
     */
    private Ladder explainRun(String name, QpConnector connector, Function<FaultedRun, FaultRule> fault, Script script)
        throws Exception {
        try (FaultedRun run = new FaultedRun(dir.resolve(name + ".pcap"))) {
            FaultRule rule = fault == null ? null : fault.apply(run);
            run.open(connector);
            script.run(run);
            run.completes();
            if (rule != null) {
                assertEquals(1, rule.applied(), rule.toString());
            }
            run.close();
            CommandRunner r = CommandRunner.run("explain", "--port", Integer.toString(run.portA), "--port",
                Integer.toString(run.portB), run.pcap.toString());
            assertEquals(0, r.status(), r.transcript());
            System.out.println(r.out()); // the surefire report keeps the ladder of each run
            return new Ladder(r.out());
        }
    }

    @Test
    void aLostMiddlePacketIsAGapThenASequenceErrorNakThenAGoBackN() throws Exception {
        Ladder ladder = explainRun("lost-middle", QpConnector.rc().timeout(16),
            run -> run.faultsA.add(FaultRule.drop(PacketMatch.opcode(Opcode.RC_SEND_MIDDLE)).once()), run -> {
                run.postReceive(4096);
                run.send(4096);
            });
        // 4096 B at MTU 1024 from PSN 0xfffffd: 16777213, 16777214 (dropped), 16777215, 0.
        Ladder.Entry gap = ladder.only("the PSN gap", e -> e.noted("PSN gap"));
        assertTrue(gap.noted("PSN gap: PSN 16777214 never seen before this packet"), gap.toString());
        Ladder.Entry nak = ladder.only("the NAK", e -> e.arrow().contains("NAK PSN sequence error"));
        assertTrue(nak.arrow().contains("RC_ACKNOWLEDGE psn 16777214 "), nak.toString());
        Ladder.Entry resent = ladder.only("the resent MIDDLE", e -> e.arrow().contains("RC_SEND_MIDDLE psn 16777214 "));
        assertTrue(resent.noted("retransmission triggered by the NAK PSN sequence error of frame " + nak.frame()
            + "; its first transmission was never captured"), resent.toString());
        // The message counts the resent MIDDLE the capture saw only once.
        ladder.only("the message", e -> e.noted("message: SEND of 4096 B in 4 packets (FIRST, 2 MIDDLE, LAST), PSNs "
            + "16777213..0, frames "));
    }

    /**
     * A's capture cannot hold what A's policy dropped, so the lost LAST is never seen: the
     * responder, short of it, never ACKs, and A resends the message from its FIRST when its ACK
     * timer (timeout 14, 67 ms) expires.
     */
    @Test
    void aLostLastPacketIsResentAfterATimeout() throws Exception {
        Ladder ladder = explainRun("lost-last", QpConnector.rc().timeout(14),
            run -> run.faultsA.add(FaultRule.drop(PacketMatch.opcode(Opcode.RC_SEND_LAST)).once()), run -> {
                run.postReceive(4096);
                run.send(4096);
            });
        List<Ladder.Entry> firsts = ladder.all("the FIRST", e -> e.arrow().contains("RC_SEND_FIRST psn 16777213 "));
        assertTrue(firsts.size() >= 2, ladder.text);
        Ladder.Entry resent = firsts.get(1);
        assertTrue(resent.noted("retransmission after a timeout (no NAK seen; the requester was silent for"),
            resent.toString());
        assertTrue(resent.noted("; first sent in frame " + firsts.get(0).frame()), resent.toString());
        Ladder.Entry middle = ladder.all("the resent MIDDLE", e -> e.arrow().contains("RC_SEND_MIDDLE psn 16777214 ")
            && e.noted("retransmission, go-back-N after a timeout")).get(0);
        assertTrue(Double.parseDouble(middle.frame()) > Double.parseDouble(resent.frame()), middle.toString());
        assertEquals(0, ladder.total(Ladder.Row::naks), ladder.text);
    }

    @Test
    void anRnrNakIsWaitedOutThenTheRequestIsResent() throws Exception {
        Ladder ladder = explainRun("rnr", QpConnector.rc().timeout(16).minRnrTimer(14), null, run -> { // 1.28 ms
            run.send(64);
            run.awaitCounterOfB("send_rnr_err"); // no receive WQE yet: an RNR NAK
            run.postReceive(64);
        });
        Ladder.Entry rnr = ladder.all("an RNR NAK", e -> e.arrow().contains("RNR NAK, timer 14 = 1.280 ms")).get(0);
        assertTrue(rnr.noted("receiver not ready: no receive WQE for PSN 16777213"), rnr.toString());
        Ladder.Entry retry = ladder.all("the retry", e -> e.noted("after the RNR NAK of frame " + rnr.frame())).get(0);
        assertTrue(retry.arrow().contains("RC_SEND_ONLY psn 16777213 "), retry.toString());
        assertTrue(retry.noted("retransmission triggered by the RNR NAK of frame " + rnr.frame()), retry.toString());
        assertTrue(retry.noted("(its timer asked for 1.280 ms)"), retry.toString());
    }

    @Test
    void aDuplicatedPacketIsADuplicate() throws Exception {
        Ladder ladder = explainRun("duplicate", QpConnector.rc().timeout(16),
            run -> run.faultsA.add(FaultRule.duplicate(PacketMatch.opcode(Opcode.RC_SEND_ONLY)).once()), run -> {
                run.postReceive(64);
                run.send(64);
            });
        Ladder.Entry first = ladder.all("the SEND", e -> e.arrow().contains("RC_SEND_ONLY psn 16777213 ")).get(0);
        Ladder.Entry dup = ladder.only("the copy", e -> e.noted("duplicate of frame " + first.frame()));
        assertTrue(dup.arrow().contains("RC_SEND_ONLY psn 16777213 "), dup.toString());
        assertEquals(1, ladder.total(Ladder.Row::duplicates), ladder.text);
    }

    @Test
    void aLostReadResponseIsFoundAndTheReadResumedOnAnImpliedNak() throws Exception {
        Ladder ladder = explainRun("lost-read-response", QpConnector.rc().timeout(16),
            run -> run.faultsB.add(FaultRule.drop(PacketMatch.operation(Operation.RDMA_READ_RESPONSE)).occurrence(2)),
            run -> run.read(4096));
        // Responses 16777213 (FIRST), 16777214 (lost), 16777215 (MIDDLE), 0 (LAST).
        Ladder.Entry read = ladder.only("the READ", e -> e.arrow().contains("RC_RDMA_READ_REQUEST psn 16777213 "));
        Ladder.Entry gap = ladder.all("the lost response", e -> e.noted("lost READ response")).get(0);
        assertTrue(gap.noted("lost READ response: PSN 16777214 of the READ of frame " + read.frame() + " never seen"),
            gap.toString());
        Ladder.Entry resumed = ladder.only("the resumed READ",
            e -> e.arrow().contains("RC_RDMA_READ_REQUEST psn 16777214 "));
        assertTrue(resumed.noted("retransmission triggered by an implied NAK: frame " + gap.frame()
            + " answered PSN 16777215 while the READ of PSN 16777213 still owed PSN 16777214"), resumed.toString());
        assertTrue(resumed.noted("resumes the READ of frame " + read.frame() + " at PSN 16777214"), resumed.toString());
        ladder.only("the READ answered", e -> e.noted("READ of frame " + read.frame() + " answered: 4096 B in 4 response"
            + " packets") && e.noted("answers the RDMA READ REQUEST of frame " + read.frame() + " (4096 B)"));
    }
}
