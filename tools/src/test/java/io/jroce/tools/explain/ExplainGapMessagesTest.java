package io.jroce.tools.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.stack.wire.Opcode;
import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Packets lost before the capture point leave a PSN gap that may hold a message's FIRST, the
 * previous message's LAST or a whole ONLY message. The packets after the gap are no opcode
 * sequence error (the responder saw a PSN gap, IBTA Vol. 1 9.7.5.1), and the packets the requester
 * resends into the gap complete their messages, as rxe's NAKs of jroce's lost FIRST show in
 * captures/naks/jroce-rxe_seq_nak.pcap.
 */
class ExplainGapMessagesTest {
    private static final int SEQUENCE_ERROR_NAK = 0x60;

    @TempDir
    Path dir;

    @Test
    void aWriteWhoseFirstWasLostIsOneMessageOnceTheFirstIsResent() throws Exception {
        Path f = dir.resolve("lost-first.pcap");
        try (SyntheticCapture c = new SyntheticCapture(f)) {
            c.request(Opcode.RC_SEND_ONLY, 9, 8, true)
                .ack(9, 1)
                .request(Opcode.RC_RDMA_WRITE_MIDDLE, 11, 1024, false) // the FIRST, PSN 10, lost before the capture
                .request(Opcode.RC_RDMA_WRITE_LAST, 12, 100, true)
                .ack(10, 1, SEQUENCE_ERROR_NAK)
                .request(Opcode.RC_RDMA_WRITE_FIRST, 10, 1024, false)
                .request(Opcode.RC_RDMA_WRITE_MIDDLE, 11, 1024, false)
                .request(Opcode.RC_RDMA_WRITE_LAST, 12, 100, true)
                .ack(12, 2);
        }
        Ladder ladder = explain(f);
        assertEquals(List.of(), ladder.findings.stream().filter(x -> x.contains("opcode sequence error")).toList());
        assertTrue(ladder.text.contains("  message A->B 2: RDMA WRITE of 2148 B in 3 packets (FIRST, 1 MIDDLE, LAST), "
            + "PSNs 10..12, frames 3..4; answered by frame 9 after 6.0 us\n"), ladder.text);
        assertTrue(ladder.entry("4").noted("message: RDMA WRITE of 2148 B in 3 packets (FIRST, 1 MIDDLE, LAST), PSNs "
            + "10..12, frames 3..4"), ladder.entry("4").toString());
        assertEquals(List.of(2, 3), List.of(ladder.rows.get(0).messages(), ladder.rows.get(0).retransmissions()),
            ladder.text);
    }

    @Test
    void aLostLastAndALostOnlyCompleteTheirMessagesWhenResent() throws Exception {
        Path f = dir.resolve("lost-last-and-only.pcap");
        try (SyntheticCapture c = new SyntheticCapture(f)) {
            // Messages are numbered as they complete: the SEND of PSNs 20..21 once its LAST is resent.
            c.request(Opcode.RC_SEND_ONLY, 19, 8, true)
                .ack(19, 1)
                .request(Opcode.RC_SEND_FIRST, 20, 1024, false) // its LAST, PSN 21, and the ONLY of PSN 22 lost
                .request(Opcode.RC_SEND_ONLY, 23, 8, true)
                .ack(21, 1, SEQUENCE_ERROR_NAK)
                .request(Opcode.RC_SEND_LAST, 21, 100, true)
                .request(Opcode.RC_SEND_ONLY, 22, 8, true)
                .request(Opcode.RC_SEND_ONLY, 23, 8, true)
                .ack(23, 4);
        }
        Ladder ladder = explain(f);
        assertEquals(List.of(), ladder.findings.stream().filter(x -> x.contains("opcode sequence error")).toList());
        assertTrue(ladder.text.contains("""
            messages:
              message A->B 1: SEND of 8 B, PSN 19, frame 1; answered by frame 2 after 1.0 us
              message A->B 3: SEND of 1124 B in 2 packets (FIRST, 0 MIDDLE, LAST), PSNs 20..21, frames 3..6; answered by frame 9 after 6.0 us
              message A->B 2: SEND of 8 B, PSN 23, frame 4; answered by frame 9 after 5.0 us
              message A->B 4: SEND of 8 B, PSN 22, frame 7; answered by frame 9 after 2.0 us
            """), ladder.text);
        assertEquals(List.of(4, 3), List.of(ladder.rows.get(0).messages(), ladder.rows.get(0).retransmissions()),
            ladder.text);
    }

    private static Ladder explain(Path f) throws InterruptedException {
        CommandRunner r = CommandRunner.run("explain", f.toString());
        assertEquals(ExitStatus.OK, r.status(), r.transcript());
        return new Ladder(r.out());
    }
}
