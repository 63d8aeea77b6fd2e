package io.jroce.tools.lesson;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.rnic.events.RetransmitCause;
import io.jroce.stack.mad.CmRejFlyweight;
import io.jroce.stack.mad.CmRepFlyweight;
import io.jroce.stack.mad.CmReqFlyweight;
import io.jroce.stack.mad.MadHeaderFlyweight;
import io.jroce.stack.wire.AethKind;
import io.jroce.stack.wire.AethSyndrome;
import io.jroce.stack.wire.NakCode;
import io.jroce.stack.wire.Opcode;
import io.jroce.tools.explain.CaptureExplanation;
import io.jroce.verbs.QpState;
import io.jroce.verbs.WcStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every lesson prints the same twice in one JVM and what its golden file holds, and shows its
 * mechanism in its packets: the assertions read the frames back with the stack's flyweights
 * ({@link FrameFields}) and the QP events, and the printed ladder for the lines a learner reads.
 */
class LessonsTest {
    static final Path GOLDEN = Path.of("src/test/resources/lessons");

    /** One lesson run with everything it prints. */
    private record Printed(LessonRun run, List<FrameFields> heard, String text) {
        static Printed of(String name) {
            LessonRun run = LessonRun.of(Catalogue.find(name).orElseThrow());
            return new Printed(run, run.frames().stream().map(FrameFields::of).toList(), LessonsTest.text(run));
        }

        FrameFields frame(int number) {
            return heard.get(number - 1);
        }

        WireFrame wire(int number) {
            return run.frames().get(number - 1);
        }

        List<String> why(int number) {
            return run.whys().get(number - 1);
        }

        /** The frames from A, as opcode and PSN. */
        List<String> requests() {
            return heard.stream().filter(h -> h.info().isRequest()).map(h -> h.info().name() + " " + h.psn()).toList();
        }

        List<QpEvent.Completion> completions(boolean atA) {
            return run.events().stream().filter(e -> e instanceof QpEvent.Completion c && c.atA() == atA)
                .map(e -> (QpEvent.Completion) e).toList();
        }

        List<QpEvent.Retransmission> retransmissions() {
            return run.events().stream().filter(e -> e instanceof QpEvent.Retransmission)
                .map(e -> (QpEvent.Retransmission) e).toList();
        }
    }

    static Stream<String> names() {
        return Catalogue.all().stream().map(Lesson::name);
    }

    private static String text(LessonRun run) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        LessonPrinter.text(run, new PrintStream(out, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @MethodSource("names")
    void aLessonPrintsTheSameOnEveryRunAndWhatItsGoldenFileHolds(String name) throws IOException {
        Printed first = Printed.of(name);
        Printed second = Printed.of(name);
        assertEquals(first.text, second.text, "two runs of " + name + " in one JVM");
        assertArrayEquals(first.run.pcap(), second.run.pcap(), "two captures of " + name);
        assertEquals(LessonPrinter.markdown(first.run), LessonPrinter.markdown(second.run));
        Path golden = GOLDEN.resolve(name + ".txt");
        if (LearnDocsTest.writing()) {
            Files.createDirectories(GOLDEN);
            Files.writeString(golden, first.text, StandardCharsets.UTF_8);
        }
        assertTrue(Files.exists(golden), golden + " is missing; write it with: " + LearnDocsTest.REGENERATE);
        assertEquals(Files.readString(golden, StandardCharsets.UTF_8), first.text,
            "jroce lesson " + name + " no longer prints " + golden + "; if the change is meant, regenerate with: "
                + LearnDocsTest.REGENERATE);
    }

    @ParameterizedTest
    @MethodSource("names")
    void everyPacketHasAWhyAndExplainReadsTheWholeCapture(String name) throws IOException {
        Printed p = Printed.of(name);
        assertFalse(p.run.frames().isEmpty());
        for (int i = 0; i < p.run.frames().size(); i++) {
            assertTrue(p.run.whys().get(i).get(0).startsWith("why: "), name + " frame " + (i + 1));
        }
        assertEquals(p.run.frames().size(), p.run.explanation().packets(), "explain decodes every frame of " + name);
        assertEquals(p.run.frames().size(),
            CaptureExplanation.of(name, p.run.pcap()).packets());
    }

    @Test
    void firstMessageIsOneSendOnlyAndOneAck() {
        Printed p = Printed.of("first-message");
        assertEquals(2, p.heard.size(), p.text);
        assertEquals(Opcode.RC_SEND_ONLY, p.frame(1).info().opcode());
        assertTrue(p.frame(1).ackReq());
        assertEquals(256, p.frame(1).psn());
        assertEquals(Opcode.RC_ACKNOWLEDGE, p.frame(2).info().opcode());
        assertEquals(AethKind.ACK, AethSyndrome.kind(p.frame(2).syndrome()));
        assertEquals(256, p.frame(2).psn());
        assertEquals(1, p.frame(2).msn());
        assertEquals(WcStatus.SUCCESS, p.completions(true).get(0).status());
        assertEquals(WcStatus.SUCCESS, p.completions(false).get(0).status());
        assertTrue(p.text.contains("|-- RC_SEND_ONLY psn 256 AckReq 64 B --"), p.text);
    }

    @Test
    void segmentationCutsTheMessageAtThePathMtu() {
        Printed p = Printed.of("segmentation");
        assertEquals(List.of("RC_SEND_FIRST 256", "RC_SEND_MIDDLE 257", "RC_SEND_LAST 258"), p.requests(), p.text);
        assertEquals(List.of(1024, 1024, 452), p.heard.subList(0, 3).stream().map(FrameFields::payload).toList());
        assertEquals(List.of(false, false, true), p.heard.subList(0, 3).stream().map(FrameFields::ackReq).toList(),
            "only the LAST asks for an ACK");
        assertEquals(4, p.heard.size());
        assertEquals(258, p.frame(4).psn(), "one ACK, for the LAST");
        assertEquals(2500, p.completions(false).get(0).byteLen());
    }

    @Test
    void aLaterAckStandsInForALostOne() {
        Printed p = Printed.of("ack-coalescing");
        assertEquals(List.of("RC_RDMA_WRITE_FIRST 256", "RC_RDMA_WRITE_MIDDLE 257", "RC_RDMA_WRITE_LAST 258",
            "RC_SEND_ONLY 259"), p.requests(), "nothing is sent twice: " + p.text);
        assertEquals(Opcode.RC_ACKNOWLEDGE, p.frame(5).info().opcode());
        assertEquals(258, p.frame(5).psn());
        assertTrue(p.wire(5).lost() != null, "the WRITE's ACK is lost");
        assertEquals(259, p.frame(6).psn());
        assertTrue(p.why(6).get(0).contains("answers all 2 requests up to it"), p.why(6).toString());
        List<QpEvent.Completion> a = p.completions(true);
        assertEquals(List.of(1L, 2L), a.stream().map(QpEvent.Completion::wrId).toList());
        assertTrue(a.stream().allMatch(c -> c.status() == WcStatus.SUCCESS && c.timeNs() > p.wire(6).timeNs()));
        assertTrue(p.retransmissions().isEmpty());
    }

    @Test
    void aLostPacketDrawsASequenceErrorNakAndAGoBackN() {
        Printed p = Printed.of("lost-packet");
        assertEquals("drop the first SEND MIDDLE", p.wire(2).lost());
        FrameFields nak = p.frame(5);
        assertEquals(Opcode.RC_ACKNOWLEDGE, nak.info().opcode());
        assertEquals(AethKind.NAK, AethSyndrome.kind(nak.syndrome()));
        assertEquals(NakCode.PSN_SEQUENCE_ERROR, AethSyndrome.nakCode(nak.syndrome()));
        assertEquals(257, nak.psn(), "the NAK names the PSN B expects");
        assertEquals(List.of("RC_SEND_FIRST 256", "RC_SEND_MIDDLE 257", "RC_SEND_MIDDLE 258", "RC_SEND_LAST 259",
            "RC_SEND_MIDDLE 257", "RC_SEND_MIDDLE 258", "RC_SEND_LAST 259"), p.requests(), p.text);
        assertEquals(RetransmitCause.NAK_SEQUENCE_ERROR, p.retransmissions().get(0).cause());
        assertTrue(p.text.contains("RC_ACKNOWLEDGE psn 257 msn 0 NAK PSN sequence error --|"), p.text);
        assertTrue(p.text.contains("* retransmission triggered by the NAK PSN sequence error of frame 5"), p.text);
        assertTrue(p.why(6).get(0).contains("(9.7.5.2.3)"), p.why(6).toString());
        assertEquals(259, p.frame(9).psn());
    }

    @Test
    void aLostLastPacketIsResentAfterTheAckTimeout() {
        Printed p = Printed.of("ack-timeout");
        assertEquals("drop the first SEND LAST", p.wire(2).lost());
        assertEquals(List.of("RC_SEND_FIRST 256", "RC_SEND_LAST 257", "RC_SEND_FIRST 256", "RC_SEND_LAST 257"),
            p.requests(), p.text);
        long timeoutNs = 4096L << 14;
        assertTrue(p.wire(3).timeNs() - p.wire(1).timeNs() >= timeoutNs, "resent after 4.096 us * 2^14");
        assertEquals(RetransmitCause.TIMEOUT, p.retransmissions().get(0).cause());
        assertEquals(6, p.retransmissions().get(0).retriesLeft());
        assertTrue(p.heard.stream().noneMatch(h -> h.syndrome() >= 0
            && AethSyndrome.kind(h.syndrome()) != AethKind.ACK), "no NAK: " + p.text);
        assertTrue(p.text.contains("* retransmission after a timeout"), p.text);
    }

    @Test
    void anRnrNakIsWaitedOutThenTheSendIsRetried() {
        Printed p = Printed.of("rnr");
        FrameFields rnr = p.frame(2);
        assertEquals(AethKind.RNR_NAK, AethSyndrome.kind(rnr.syndrome()));
        assertEquals(12, AethSyndrome.value(rnr.syndrome()));
        assertEquals(List.of("RC_SEND_ONLY 256", "RC_SEND_ONLY 256"), p.requests());
        assertTrue(p.wire(3).timeNs() - p.wire(2).timeNs() >= AethSyndrome.rnrTimerNs(12), "A waited the timer out");
        assertEquals(RetransmitCause.RNR_NAK, p.retransmissions().get(0).cause());
        assertEquals(AethKind.ACK, AethSyndrome.kind(p.frame(4).syndrome()));
        assertTrue(p.text.contains("RNR NAK, timer 12 = 640.0 us --|"), p.text);
    }

    @Test
    void aLostReadResponseIsAnImpliedNakAndTheReadResumesAtTheGap() {
        Printed p = Printed.of("lost-read-response");
        assertEquals(List.of(256, 257, 258, 259), p.heard.subList(1, 5).stream().map(FrameFields::psn).toList());
        assertEquals("drop the second READ response", p.wire(3).lost());
        FrameFields again = p.frame(6);
        assertEquals(Opcode.RC_RDMA_READ_REQUEST, again.info().opcode());
        assertEquals(257, again.psn());
        assertEquals(3072, again.dmaLength(), "the rest of the READ");
        assertEquals(RetransmitCause.IMPLIED_NAK, p.retransmissions().get(0).cause());
        assertEquals(List.of(257, 258, 259), p.heard.subList(6, 9).stream().map(FrameFields::psn).toList());
        assertTrue(p.text.contains("va 0x20400 rkey 0x0000b0b0 len 3072"), p.text);
        assertTrue(p.text.contains("* retransmission triggered by an implied NAK"), p.text);
        assertTrue(p.why(4).get(0).contains("implied NAK (C9-113)"), p.why(4).toString());
        assertEquals(4096, p.completions(true).get(0).byteLen());
    }

    @Test
    void aRepeatedAtomicIsAnsweredFromTheReplayRecordAndRunsOnce() {
        Printed p = Printed.of("duplicate-atomic");
        assertEquals(List.of("RC_FETCH_ADD 256", "RC_FETCH_ADD 256"), p.requests());
        assertEquals("drop the first ATOMIC ACKNOWLEDGE", p.wire(2).lost());
        assertEquals(Opcode.RC_ATOMIC_ACKNOWLEDGE, p.frame(4).info().opcode());
        assertEquals(p.frame(2).original(), p.frame(4).original(), "the same original value");
        assertEquals(RetransmitCause.TIMEOUT, p.retransmissions().get(0).cause());
        assertTrue(p.why(4).get(0).contains("replay record"), p.why(4).toString());
        assertTrue(p.text.contains("B's memory: the counter holds 1 after two FETCH_ADDs"), p.text);
    }

    @Test
    void psnsWrapAroundFrom16777215To0() {
        Printed p = Printed.of("psn-wrap");
        assertEquals(List.of("RC_SEND_FIRST 16777214", "RC_SEND_MIDDLE 16777215", "RC_SEND_MIDDLE 0",
            "RC_SEND_LAST 1"), p.requests());
        assertEquals(1, p.frame(5).psn());
        assertEquals(AethKind.ACK, AethSyndrome.kind(p.frame(5).syndrome()));
        assertTrue(p.why(3).get(0).contains("PSN 0 follows 16777215"), p.why(3).toString());
        assertEquals(WcStatus.SUCCESS, p.completions(true).get(0).status());
    }

    @Test
    void exhaustedRetriesEndInRetryExcErrAndTheFlush() {
        Printed p = Printed.of("retry-exceeded");
        assertEquals(6, p.heard.size(), p.text);
        assertTrue(p.run.frames().stream().allMatch(f -> f.lost() != null));
        assertEquals(List.of(1, 0), p.retransmissions().stream().map(QpEvent.Retransmission::retriesLeft).toList());
        List<QpEvent.Completion> a = p.completions(true);
        assertEquals(List.of(WcStatus.RETRY_EXC_ERR, WcStatus.WR_FLUSH_ERR),
            a.stream().map(QpEvent.Completion::status).toList());
        assertTrue(p.run.events().stream().anyMatch(e -> e instanceof QpEvent.StateChanged s && s.atA()
            && s.to() == QpState.ERR));
        assertTrue(a.get(0).timeNs() - p.wire(5).timeNs() >= 4096L << 12, "after a third timeout");
        assertTrue(p.text.contains("completes RETRY_EXC_ERR -- the ACK timer expired once more"), p.text);
    }

    private static List<Integer> attributes(Printed p) {
        return p.heard.stream().map(h -> new MadHeaderFlyweight().wrap(new UnsafeBuffer(h.mad()), 0).attributeId())
            .toList();
    }

    private static List<String> cmEvents(Printed p) {
        return p.run.events().stream().filter(e -> e instanceof QpEvent.CmEvent).map(e -> ((QpEvent.CmEvent) e).text())
            .toList();
    }

    @Test
    void theCmHandshakeIsReqRepRtuAndTheDisconnectDreqDrep() {
        Printed p = Printed.of("cm-connect");
        assertEquals(List.of(MadHeaderFlyweight.ATTR_REQ, MadHeaderFlyweight.ATTR_REP, MadHeaderFlyweight.ATTR_RTU,
            MadHeaderFlyweight.ATTR_DREQ, MadHeaderFlyweight.ATTR_DREP), attributes(p), p.text);
        assertEquals(List.of(true, false, true, true, false), p.run.frames().stream().map(WireFrame::fromA).toList());
        CmReqFlyweight req = new CmReqFlyweight().wrap(new UnsafeBuffer(p.frame(1).mad()), 0);
        assertEquals(CmScene.SERVICE, req.serviceId());
        assertEquals(p.run.qpnA(), req.localQpn());
        assertEquals(256, req.startingPsn());
        CmRepFlyweight rep = new CmRepFlyweight().wrap(new UnsafeBuffer(p.frame(2).mad()), 0);
        assertEquals(p.run.qpnB(), rep.localQpn());
        assertEquals(512, rep.startingPsn());
        assertEquals(req.localCommId(), rep.remoteCommId());
        List<String> events = cmEvents(p);
        assertEquals(2, events.stream().filter(e -> e.startsWith("ESTABLISHED")).count(), events.toString());
        assertEquals(2, events.stream().filter(e -> e.startsWith("TimeWait is over")).count(), events.toString());
        assertTrue(p.why(1).get(0).startsWith("why: REQ (12.6.5)"), p.why(1).toString());
    }

    @Test
    void aReqForNoListenerGetsRej8AndARefusedOneRej28() {
        Printed p = Printed.of("cm-reject");
        assertEquals(List.of(MadHeaderFlyweight.ATTR_REQ, MadHeaderFlyweight.ATTR_REJ, MadHeaderFlyweight.ATTR_REQ,
            MadHeaderFlyweight.ATTR_REJ), attributes(p), p.text);
        assertEquals(8, new CmRejFlyweight().wrap(new UnsafeBuffer(p.frame(2).mad()), 0).reason());
        assertEquals(28, new CmRejFlyweight().wrap(new UnsafeBuffer(p.frame(4).mad()), 0).reason());
        assertEquals(List.of("REJECTED, reason 8 (invalid service ID: nobody listens on it)",
            "a connect request for service 0x0000000001061d2f: the application rejects it",
            "REJECTED, reason 28 (consumer reject: the application said no)"), cmEvents(p));
    }
}
