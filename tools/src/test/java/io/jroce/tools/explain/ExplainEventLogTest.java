package io.jroce.tools.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jroce explain} on devices' event logs (docs/event-log.md): the pinned log of rnic-sim's
 * EventLogTest (a SEND whose MIDDLE the fabric lost once) explained as a capture would be, with the
 * lost packet found from the two logs; bad logs refused with one line, never a stack trace.
 */
class ExplainEventLogTest {
    /** Both devices' logs of a seeded fabric run, pinned by rnic-sim's EventLogTest. */
    private static final Path LOST_MIDDLE = Path.of("../rnic-sim/src/test/resources/event-log/lost-middle.jsonseq");
    private static final String HEADER = "\u001e{\"format\":\"jroce-event-log\",\"version\":1,\"device\":\"d\","
        + "\"gids\":[\"0000:0000:0000:0000:0000:ffff:0a00:0001\"],\"clock\":\"virtual\",\"time_unit\":\"ns\"}\n";

    @TempDir
    Path dir;

    private static CommandRunner explain(String... args) throws InterruptedException {
        String[] all = new String[args.length + 1];
        all[0] = "explain";
        System.arraycopy(args, 0, all, 1, args.length);
        return CommandRunner.run(all);
    }

    @Test
    void theLostMiddleIsFoundAndTheRetransmissionExplained() throws Exception {
        CommandRunner r = explain(LOST_MIDDLE.toString());
        assertEquals(ExitStatus.OK, r.status(), r.transcript());
        Ladder ladder = new Ladder(r.out());
        assertTrue(ladder.entry("2").arrow().contains("RC_SEND_MIDDLE psn 257"), r.out());
        assertTrue(ladder.entry("2").noted("LOST on the way: jroce0 sent it, the network dropped it (fault: lose PSN "
            + "0x101 (seen 1, applied 1))"), "the fabric's marker in jroce0's log names the rule: " + r.out());
        assertTrue(ladder.entry("3").noted("PSN gap: PSN 257 never seen"), r.out());
        assertTrue(ladder.entry("4").arrow().contains("NAK PSN sequence error"), r.out());
        assertTrue(ladder.entry("5").noted("retransmission triggered by the NAK PSN sequence error of frame 4"), r.out());
        assertTrue(ladder.entry("6").noted("go-back-N"), r.out());
        assertTrue(ladder.entry("7").arrow().contains("msn 1 ACK"), r.out());
        assertEquals(7, ladder.entries.size(), "every packet A and B sent, each once");
        assertFalse(ladder.entry("5").noted("LOST"), "the retransmission arrived");
    }

    @Test
    void oneDevicesLogAloneShowsWhatItSentAndReceivedAndWhatTheFabricDropped() throws Exception {
        String both = Files.readString(LOST_MIDDLE);
        Path aOnly = dir.resolve("a.jsonseq");
        Files.writeString(aOnly, both.substring(0, both.indexOf("\u001e{\"format\"", 1)));
        CommandRunner r = explain(aOnly.toString());
        assertEquals(ExitStatus.OK, r.status(), r.transcript());
        Ladder ladder = new Ladder(r.out());
        assertEquals(7, ladder.entries.size(), "A's five sends and the two ACKs it received: " + r.out());
        assertTrue(ladder.entry("2").noted("LOST on the way: jroce0 sent it, the network dropped it"),
            "without B's log, the fabric's marker in A's own log says the MIDDLE was lost: " + r.out());
        assertEquals(1, r.out().split("LOST", -1).length - 1, "nothing else is known lost: " + r.out());
    }

    @Test
    void aFieldByFieldExplanationNeedsACapture() throws Exception {
        CommandRunner r = explain("--packet", "1", LOST_MIDDLE.toString());
        assertEquals(ExitStatus.FAILED, r.status(), r.transcript());
        assertTrue(r.err().contains("an event log has decoded fields only"), r.transcript());
    }

    @Test
    void badLogsAreRefusedWithOneLine() throws Exception {
        refused(HEADER.substring(0, 20), "is not JSON");
        refused(HEADER + "\u001e[1,2]\n", "is not a JSON object");
        refused("\u001e{\"time\":1,\"name\":\"roce:packet_sent\",\"data\":{}}\n", "comes before a log's first record");
        refused(HEADER.replace("\"version\":1", "\"version\":9"), "not a jroce event log of version 1");
        refused(HEADER + packet("RC_SEND_ONLY", "\"dst_qpn\":17,\"psn\":1,\"payload\":8", "1"), "'1' is not an IP address");
        refused(HEADER + packet("NO_SUCH_OPCODE", "\"dst_qpn\":17,\"psn\":1,\"payload\":8", "\"10.0.0.2\""),
            "unknown opcode 'NO_SUCH_OPCODE'");
        refused(HEADER + packet("RC_RDMA_READ_REQUEST", "\"dst_qpn\":17,\"psn\":1,\"payload\":0", "\"10.0.0.2\""),
            "a RC_RDMA_READ_REQUEST record without the number 'va'");
        refused(HEADER + packet("RC_SEND_ONLY", "\"dst_qpn\":\"x\",\"psn\":1,\"payload\":8", "\"10.0.0.2\""),
            "without the number 'dst_qpn'");
        refused(HEADER + packet("RC_SEND_ONLY", "\"dst_qpn\":17,\"psn\":1,\"payload\":8", "\"not-an-address\""),
            "is not an IP address");
    }

    private static String packet(String opcode, String fields, String dst) {
        return "\u001e{\"time\":5,\"name\":\"roce:packet_sent\",\"data\":{\"frame\":1,\"src\":\"10.0.0.1\",\"dst\":" + dst
            + ",\"udp_port\":4791,\"length\":20,\"opcode\":\"" + opcode + "\"," + fields + "}}\n";
    }

    private void refused(String log, String why) throws IOException, InterruptedException {
        Path f = Files.writeString(dir.resolve("bad-" + Integer.toHexString(log.hashCode()) + ".jsonseq"), log);
        CommandRunner r = explain(f.toString());
        assertEquals(ExitStatus.FAILED, r.status(), r.transcript());
        assertEquals("", r.out(), r.transcript());
        assertTrue(r.err().startsWith("jroce explain: ") && r.err().contains(why), why + " in: " + r.transcript());
        assertEquals(1, r.err().lines().count(), r.transcript());
        assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), r.transcript());
    }

    /**
     * A receiver's drop that names an arrival: a unicast SEND it dropped is drawn dropped with the
     * reason; a multicast datagram (QPN 0xFFFFFF) one member QP dropped is not, as other members
     * may have taken it.
     */
    @Test
    void aDroppedArrivalIsNotedUnlessItWasMulticast() throws Exception {
        String received = "\u001e{\"time\":%d,\"name\":\"roce:packet_received\",\"data\":{\"arrival\":%d,"
            + "\"src\":\"10.0.0.9\",\"dst\":\"10.0.0.1\",\"udp_port\":4791,\"length\":%d,\"opcode\":\"%s\","
            + "\"dst_qpn\":%d,\"psn\":%d,\"ack_req\":false,\"payload\":8%s}}\n";
        String dropped = "\u001e{\"time\":%d,\"name\":\"roce:packet_dropped\",\"data\":{\"reason\":\"%s\","
            + "\"count\":1,\"arrival\":%d}}\n";
        Path log = dir.resolve("drops.jsonseq");
        Files.writeString(log, HEADER
            + String.format(received, 1000, 1, 20, "RC_SEND_ONLY", 0x42, 5, "")
            + String.format(dropped, 1000, "drop_wrong_qp_state", 1)
            + String.format(received, 2000, 2, 28, "UD_SEND_ONLY", 0xFFFFFF, 6, ",\"src_qpn\":7")
            + String.format(dropped, 2000, "drop_no_recv_wqe", 2));
        CommandRunner r = explain(log.toString());
        assertEquals(ExitStatus.OK, r.status(), r.transcript());
        Ladder ladder = new Ladder(r.out());
        Ladder.Entry unicast = ladder.only("the RC SEND", e -> e.arrow().contains("RC_SEND_ONLY psn 5 "));
        assertTrue(unicast.noted("DROPPED on arrival: d received it and dropped it (drop_wrong_qp_state, its arrival 1)"),
            unicast.toString());
        Ladder.Entry multicast = ladder.only("the multicast SEND", e -> e.arrow().contains("UD_SEND_ONLY psn 6 "));
        assertFalse(multicast.noted("DROPPED"), "one member's drop is not the datagram's: " + multicast);
    }
}
