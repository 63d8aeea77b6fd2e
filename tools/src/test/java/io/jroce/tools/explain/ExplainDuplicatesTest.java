package io.jroce.tools.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.stack.wire.Opcode;
import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A packet a capture holds twice, byte for byte (same QP, PSN, opcode and bytes), with nothing that
 * asked for it again: a copy made on the way, counted in its sender's {@code dups}. For a request,
 * "nothing asked" is no NAK and no timeout (RetransmissionAnalyzer); for a response, no repeated
 * request for the responder to answer again (IBTA Vol. 1 9.7: a responder answers each
 * duplicate request), so a responder's repeat after one is its answer, not a copy.
 */
class ExplainDuplicatesTest {
    @TempDir
    Path dir;

    @Test
    void copiedResponsesAreDuplicatesAndAnswersToRepeatedRequestsAreNot() throws Exception {
        Path f = dir.resolve("copies.pcap");
        try (SyntheticCapture c = new SyntheticCapture(f)) {
            c.request(Opcode.RC_SEND_ONLY, 10, 8, true)
                .ack(10, 1)
                .ack(10, 1) // 3: a copy of B's ACK, with no repeated request to answer
                .read(11, 0x1000, 0x42, 768)
                .readResponse(Opcode.RC_RDMA_READ_RESPONSE_FIRST, 11, 256, 2)
                .readResponse(Opcode.RC_RDMA_READ_RESPONSE_MIDDLE, 12, 256, 2)
                .readResponse(Opcode.RC_RDMA_READ_RESPONSE_MIDDLE, 12, 256, 2) // 7: a copy of a READ response
                .readResponse(Opcode.RC_RDMA_READ_RESPONSE_LAST, 13, 256, 2)
                .request(Opcode.RC_SEND_ONLY, 14, 8, true)
                .request(Opcode.RC_SEND_ONLY, 14, 8, true) // 10: a copy of A's SEND
                .ack(14, 3)
                .ack(14, 3); // 12: B answers the copy of frame 10 again: no copy of its own
        }
        CommandRunner r = CommandRunner.run("explain", f.toString());
        assertEquals(ExitStatus.OK, r.status(), r.transcript());
        Ladder ladder = new Ladder(r.out());
        assertTrue(ladder.entry("3").notes().get(0).matches("duplicate of frame 2: the same response again \\S+ \\S+ later "
            + "with no repeated request to answer \\(a copy made on the way\\)"), ladder.entry("3").notes().toString());
        assertFalse(ladder.entry("3").noted("answers a repeated request"), ladder.entry("3").notes().toString());
        assertTrue(ladder.entry("7").notes().get(0).startsWith("duplicate of frame 6: the same response again "),
            ladder.entry("7").notes().toString());
        assertFalse(ladder.text.contains("lost READ response"), "a copy is not a gap in the READ's responses: "
            + ladder.text);
        assertTrue(ladder.entry("8").noted("READ of frame 4 answered: 768 B in 3 response packets"), ladder.text);
        assertTrue(ladder.entry("10").notes().get(0).startsWith("duplicate of frame 9: the same PSN again "),
            ladder.entry("10").notes().toString());
        assertEquals(List.of("the same ACK as frame 11: the responder answers a repeated request"),
            ladder.entry("12").notes());
        Ladder.Row a = ladder.rows.get(0);
        Ladder.Row b = ladder.rows.get(1);
        assertEquals(List.of(1, 0), List.of(a.duplicates(), a.retransmissions()), ladder.text);
        assertEquals(List.of(2, 0), List.of(b.duplicates(), b.retransmissions()), ladder.text);
        assertEquals(4, b.acks(), "every ACKNOWLEDGE packet counts, as tshark counts opcode 17");
        assertEquals(3, ladder.findings.stream().filter(x -> x.contains("duplicate of frame")).count(), ladder.text);
    }

    /**
     * A READ response repeated too long after the first to be a copy on the way (a responder replaying
     * it for a READ request the capture missed) is an older response again, not a skip over every
     * PSN of the 24-bit space to a "lost" range.
     */
    @Test
    void aLateRepeatOfAReadResponseIsNoLostResponse() throws Exception {
        Path f = dir.resolve("late-repeat.pcap");
        try (SyntheticCapture c = new SyntheticCapture(f)) {
            c.read(11, 0x1000, 0x42, 768)
                .readResponse(Opcode.RC_RDMA_READ_RESPONSE_FIRST, 11, 256, 1)
                .readResponse(Opcode.RC_RDMA_READ_RESPONSE_MIDDLE, 12, 256, 1)
                .pause(RetransmissionAnalyzer.DUPLICATE_WINDOW_NS)
                .readResponse(Opcode.RC_RDMA_READ_RESPONSE_MIDDLE, 12, 256, 1) // 4: 2 ms after frame 3
                .readResponse(Opcode.RC_RDMA_READ_RESPONSE_LAST, 13, 256, 1);
        }
        Ladder ladder = new Ladder(CommandRunner.run("explain", f.toString()).out());
        assertFalse(ladder.text.contains("lost READ response"), ladder.text);
        assertEquals(List.of("PSN 12 of the READ of frame 1 again: its responder sent it before, in frame 3"),
            ladder.entry("4").notes());
        assertTrue(ladder.entry("5").noted("READ of frame 1 answered: 768 B in 3 response packets"), ladder.text);
        assertEquals(0, ladder.rows.get(1).duplicates(), ladder.text);
    }

    /** Nor is a READ response overtaken by a later one: it fills its place in the READ, late. */
    @Test
    void anOvertakenReadResponseIsLateNotAWrapAround() throws Exception {
        Path f = dir.resolve("overtaken-response.pcap");
        try (SyntheticCapture c = new SyntheticCapture(f)) {
            c.read(11, 0x1000, 0x42, 1280)
                .readResponse(Opcode.RC_RDMA_READ_RESPONSE_FIRST, 11, 256, 1)
                .readResponse(Opcode.RC_RDMA_READ_RESPONSE_MIDDLE, 14, 256, 1) // 3: PSNs 12 and 13 not yet seen
                .readResponse(Opcode.RC_RDMA_READ_RESPONSE_MIDDLE, 13, 256, 1) // 4: overtaken by frame 3
                .readResponse(Opcode.RC_RDMA_READ_RESPONSE_MIDDLE, 12, 256, 1)
                .readResponse(Opcode.RC_RDMA_READ_RESPONSE_LAST, 15, 256, 1);
        }
        Ladder ladder = new Ladder(CommandRunner.run("explain", f.toString()).out());
        assertTrue(ladder.entry("3").noted("lost READ response: PSNs 12..13 of the READ of frame 1 never seen"),
            ladder.text);
        assertEquals(List.of("late READ response: PSN 13 of the READ of frame 1, overtaken on the way by later ones"),
            ladder.entry("4").notes());
        assertTrue(ladder.entry("6").noted("READ of frame 1 answered: 1280 B in 5 response packets"), ladder.text);
    }

    /**
     * Nor is a packet that arrives after later ones, with nothing that asked for it and no pause
     * before it: it was overtaken on the way, so it fills its gap out of order, and is neither a
     * duplicate nor a retransmission.
     */
    @Test
    void anOvertakenPacketFillsItsGapOutOfOrder() throws Exception {
        Path f = dir.resolve("overtaken.pcap");
        try (SyntheticCapture c = new SyntheticCapture(f)) {
            c.request(Opcode.RC_SEND_FIRST, 20, 256, false)
                .request(Opcode.RC_SEND_LAST, 22, 100, true)
                .request(Opcode.RC_SEND_MIDDLE, 21, 256, false) // 3: overtaken by frame 2
                .ack(22, 1);
        }
        Ladder ladder = new Ladder(CommandRunner.run("explain", f.toString()).out());
        assertEquals("PSN gap: PSN 21 never seen before this packet (lost before the capture point)",
            ladder.entry("2").notes().get(0));
        assertTrue(ladder.entry("3").notes().get(0).startsWith("out of order: fills the PSN gap, "),
            ladder.entry("3").notes().toString());
        Ladder.Row a = ladder.rows.get(0);
        assertEquals(List.of(0, 0, 1), List.of(a.duplicates(), a.retransmissions(), a.gaps()), ladder.text);
        assertTrue(ladder.text.contains("message: SEND of 612 B in 3 packets (FIRST, 1 MIDDLE, LAST), PSNs 20..22"),
            "the overtaken MIDDLE belongs to its message: " + ladder.text);
    }

    /**
     * A FIRST overtaken by its MIDDLE and LAST (a capture at the receiver's side of a fabric that held
     * it back): the responder NAKs the MIDDLE for its PSN and never judges its opcode, so the MIDDLE
     * and LAST are no opcode sequence error; the late FIRST starts their message, which the ACK
     * answers. A whole message overtaken (an ONLY) is a message too.
     */
    @Test
    void anOvertakenFirstStartsItsMessageLateAndIsNoSequenceError() throws Exception {
        Path f = dir.resolve("overtaken-first.pcap");
        try (SyntheticCapture c = new SyntheticCapture(f)) {
            c.request(Opcode.RC_SEND_MIDDLE, 21, 256, false)
                .request(Opcode.RC_SEND_LAST, 22, 100, true)
                .request(Opcode.RC_SEND_FIRST, 20, 256, false) // 3: overtaken by frames 1 and 2
                .request(Opcode.RC_SEND_ONLY, 24, 8, true)
                .request(Opcode.RC_SEND_ONLY, 23, 8, true) // 5: overtaken by frame 4
                .ack(24, 3);
        }
        Ladder ladder = new Ladder(CommandRunner.run("explain", f.toString()).out());
        assertFalse(ladder.text.contains("opcode sequence error"), ladder.text);
        assertTrue(ladder.entry("3").noted("out of order: fills the PSN gap, "), ladder.entry("3").toString());
        assertTrue(ladder.entry("3").noted("message: SEND of 612 B in 3 packets (FIRST, 1 MIDDLE, LAST), PSNs 20..22, "
            + "frames 1..3"), ladder.entry("3").toString());
        assertTrue(ladder.entry("5").noted("out of order: fills the PSN gap, "), ladder.entry("5").toString());
        assertEquals(List.of("answers the SEND of frames 1..3 (612 B) after 5.0 us", "answers the SEND of frame 4 (8 B) "
            + "after 2.0 us", "answers the SEND of frame 5 (8 B) after 1.0 us"), ladder.entry("6").notes());
        Ladder.Row a = ladder.rows.get(0);
        assertEquals(List.of(3, 0, 0), List.of(a.messages(), a.duplicates(), a.retransmissions()), ladder.text);
    }

    /** A FIRST held back past the whole next message still starts its own: no sequence error, two messages. */
    @Test
    void aFirstHeldBackPastTheNextMessageStillStartsItsOwn() throws Exception {
        Path f = dir.resolve("first-past-next.pcap");
        try (SyntheticCapture c = new SyntheticCapture(f)) {
            c.request(Opcode.RC_SEND_MIDDLE, 21, 256, false)
                .request(Opcode.RC_SEND_LAST, 22, 100, false)
                .request(Opcode.RC_SEND_FIRST, 23, 256, false)
                .request(Opcode.RC_SEND_LAST, 24, 8, true)
                .request(Opcode.RC_SEND_FIRST, 20, 256, false) // 5: overtaken by four packets, a whole message among them
                .ack(24, 2);
        }
        Ladder ladder = new Ladder(CommandRunner.run("explain", f.toString()).out());
        assertFalse(ladder.text.contains("opcode sequence error"), ladder.text);
        assertTrue(ladder.entry("5").noted("message: SEND of 612 B in 3 packets (FIRST, 1 MIDDLE, LAST), PSNs 20..22, "
            + "frames 1..5"), ladder.entry("5").toString());
        assertTrue(ladder.entry("4").noted("message: SEND of 264 B in 2 packets (FIRST, 0 MIDDLE, LAST), PSNs 23..24"),
            ladder.entry("4").toString());
        assertEquals(2, ladder.rows.get(0).messages(), ladder.text);
    }
}
