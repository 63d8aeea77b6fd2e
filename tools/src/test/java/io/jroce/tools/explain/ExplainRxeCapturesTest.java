package io.jroce.tools.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.stack.pcap.RoceFrame;
import io.jroce.testsupport.Tshark;
import io.jroce.tools.CommandRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code jroce explain} on the real rxe captures of the stack's test resources: exact ladder lines
 * and summaries where a packet is known, and for every capture the counts tshark's raw fields give
 * (packets per opcode, ACKs, NAKs, RNR NAKs, messages, retransmissions and duplicates): from the
 * {@code .expected.tsv} files tshark wrote once, and from tshark itself when it is installed.
 */
class ExplainRxeCapturesTest {
    /** The stack module's rxe captures, read where they are (the tests run in the module's directory). */
    static final Path CAPTURES = Path.of("../stack/src/test/resources/captures");
    /** jroce and rxe with rxe's NAKs and RNR NAKs, and the retransmissions after them (captures/README.md). */
    static final Path NAKS = CAPTURES.resolve("naks");

    static Stream<Path> captures() throws IOException {
        List<Path> all = new ArrayList<>();
        for (Path dir : List.of(CAPTURES, CAPTURES.resolve("cm"), NAKS)) {
            try (Stream<Path> files = Files.list(dir)) {
                files.filter(p -> p.toString().endsWith(".pcap")).sorted().forEach(all::add);
            }
        }
        assertTrue(all.size() >= 21, "the rxe captures are where they were: " + all);
        return all.stream();
    }

    /** The captures with the fields tshark wrote once beside them (not the CM captures of cm/). */
    static Stream<Path> capturesWithTsharkFields() throws IOException {
        List<Path> all = captures().filter(p -> Files.exists(tsharkFields(p))).toList();
        assertTrue(all.size() >= 17, "the .expected.tsv files are where they were: " + all);
        return all.stream();
    }

    private static Path tsharkFields(Path capture) {
        return Path.of(capture.toString().replace(".pcap", ".expected.tsv"));
    }

    static Ladder explain(String... args) throws InterruptedException {
        CommandRunner r = CommandRunner.run(Stream.concat(Stream.of("explain"), Stream.of(args)).toArray(String[]::new));
        assertEquals(0, r.status(), r.transcript());
        assertEquals("", r.err(), r.transcript());
        return new Ladder(r.out());
    }

    @Test
    void rcPingpongIsOneConnectionOfHundredMessagesEachWay() throws Exception {
        Ladder ladder = explain(CAPTURES.resolve("rxe-rc_pingpong_v4.pcap").toString());
        assertTrue(ladder.text.startsWith("../stack/src/test/resources/captures/rxe-rc_pingpong_v4.pcap: 1002 frames, "
            + "1002 RoCEv2 packets in 1 connection\n\n"
            + "connection 1 (RC): A = 10.77.0.3 QP 0x000011, B = 10.77.0.2 QP 0x000011\n"), ladder.text);
        assertTrue(ladder.text.contains("""
                  1   0.000000  |-- RC_SEND_FIRST psn 10302846 1024 B --------------------------------->|
                  2   0.000567  |-- RC_SEND_MIDDLE psn 10302847 1024 B -------------------------------->|
                  3   0.000712  |-- RC_SEND_MIDDLE psn 10302848 1024 B -------------------------------->|
                  4   0.002343  |-- RC_SEND_LAST psn 10302849 AckReq 1024 B --------------------------->|
                                * message: SEND of 4096 B in 4 packets (FIRST, 2 MIDDLE, LAST), PSNs 10302846..10302849, frames 1..4
                  5   0.011905  |<----------------------------- RC_ACKNOWLEDGE psn 10302849 msn 1 ACK --|
                                * answers the SEND of frames 1..4 (4096 B) after 11.905 ms
            """), ladder.text);
        assertTrue(ladder.text.contains("""
            summary:
              sender                              packets      bytes messages  retrans  dups  gaps  ACKs  NAKs  RNR   duration
              A 10.77.0.3 QP 0x000011                 501     409600      100        0     0     0   101     0    0 185.372 ms
              B 10.77.0.2 QP 0x000011                 501     410624      100        0     1     0   100     0    0 173.347 ms

            packets by opcode:
              0x00 RC_SEND_FIRST                           201
              0x01 RC_SEND_MIDDLE                          400
              0x02 RC_SEND_LAST                            200
              0x11 RC_ACKNOWLEDGE                          201
            """), ladder.text);
        assertEquals(List.of("frame 707: duplicate of frame 706: the same PSN again 555.0 us later with no NAK or timeout "
            + "before it (a copy made on the way)"), ladder.findings);
        assertTrue(ladder.text.contains("  message B->A 100: SEND of 4096 B in 4 packets (FIRST, 2 MIDDLE, LAST), PSNs "
            + "9038758..9038761, frames 998..1001; answered by frame 1002 after 290.0 us\n"), ladder.text);
    }

    @Test
    void rxeResendsAfterItsTimerInTheLongCapture() throws Exception {
        Ladder ladder = explain(CAPTURES.resolve("rxe-rc_pingpong_v6_long.pcap").toString());
        assertEquals(List.of(
            "frame 200: retransmission after a timeout (no NAK seen; the requester was silent for 1.839 ms); first sent in "
                + "frame 196",
            "frame 202: retransmission, go-back-N after a timeout (no NAK seen; the requester was silent for 1.839 ms); "
                + "first sent in frame 197",
            "frame 203: retransmission, go-back-N after a timeout (no NAK seen; the requester was silent for 1.839 ms); "
                + "first sent in frame 198",
            "frame 204: retransmission, go-back-N after a timeout (no NAK seen; the requester was silent for 1.839 ms); "
                + "first sent in frame 199"), ladder.findings);
        assertTrue(ladder.entry("205").noted("the same ACK as frame 201: the responder answers a repeated request"));
    }

    @Test
    void readsAndAtomicsArePairedWithTheirResponses() throws Exception {
        Ladder read = explain(CAPTURES.resolve("rxe-read_bw.pcap").toString());
        assertTrue(read.entry("1").arrow().startsWith("|-- RC_RDMA_READ_REQUEST psn 5540943 AckReq va 0x556662436000 "
            + "rkey 0x0000022a len 4096 -"), read.entry("1").toString());
        assertEquals(20, read.findings.stream().filter(f -> f.contains("answered: 4096 B in 4 response packets")).count(),
            read.text);
        Ladder cas = explain(CAPTURES.resolve("rxe-atomic_cmp.pcap").toString());
        assertTrue(cas.entry("1").arrow().contains("RC_COMPARE_SWAP psn 15733580 AckReq va 0x55e30cd4e000 rkey "
            + "0x000002d6 compare 0x0 swap 0x0"), cas.text);
        assertEquals(20, cas.entries.values().stream().filter(e -> e.noted("answers the RC_COMPARE_SWAP of frame ")
            && e.noted("the target held 0x")).count(), cas.text);
    }

    @ParameterizedTest
    @MethodSource("capturesWithTsharkFields")
    void countsMatchWhatTsharkWroteOnce(Path capture) throws Exception {
        assertEquals(countsFromTsharkFields(capture), CaptureCounts.of(explain(capture.toString())), capture.toString());
    }

    /**
     * The captures of naks/ hold what they were made for, by tshark's fields alone (AETH syndromes,
     * PSNs repeated or resent into a gap), so that the comparison above compares NAKs, RNR NAKs and
     * retransmissions, not zeros.
     */
    @Test
    void theNakCapturesHoldNaksRnrNaksAndRetransmissions() throws Exception {
        CaptureCounts seq = countsFromTsharkFields(NAKS.resolve("jroce-rxe_seq_nak.pcap"));
        assertEquals(List.of(2, 0, 2), List.of(seq.naks(), seq.rnrNaks(), seq.messages()), seq.toString());
        assertTrue(seq.repeats() >= 4, seq.toString()); // each lost packet resent, with what followed it
        CaptureCounts rnr = countsFromTsharkFields(NAKS.resolve("jroce-rxe_rnr_nak.pcap"));
        assertTrue(rnr.rnrNaks() >= 1 && rnr.repeats() == rnr.rnrNaks() && rnr.messages() == 1, rnr.toString());
        CaptureCounts rxe = countsFromTsharkFields(NAKS.resolve("rxe-jroce_rnr_timeout.pcap"));
        assertTrue(rxe.rnrNaks() >= 1 && rxe.repeats() >= rxe.rnrNaks() + 3 && rxe.messages() == 2, rxe.toString());
        CaptureCounts rxeSeq = countsFromTsharkFields(NAKS.resolve("rxe-jroce_seq_nak.pcap"));
        assertEquals(List.of(1, 0, 1), List.of(rxeSeq.naks(), rxeSeq.rnrNaks(), rxeSeq.messages()), rxeSeq.toString());
        assertTrue(rxeSeq.repeats() >= 1, rxeSeq.toString());
    }

    /** A PSN sequence error NAK after a lost FIRST: the WRITE is one message, its FIRST resent into the gap. */
    @Test
    void rxeNaksTheGapsJroceLeftAndJroceGoesBack() throws Exception {
        Ladder ladder = explain(NAKS.resolve("jroce-rxe_seq_nak.pcap").toString());
        assertEquals(List.of(
            "frame 2: PSN gap: PSN 16285982 never seen before this packet (lost before the capture point)",
            "frame 4: NAK PSN sequence error: the responder expected PSN 16285982 and got a later one; everything before "
                + "it is acknowledged, the requester goes back to it",
            "frame 5: retransmission triggered by the NAK PSN sequence error of frame 4; its first transmission was never "
                + "captured",
            "frame 6: retransmission, go-back-N after the NAK PSN sequence error of frame 4; first sent in frame 2",
            "frame 7: retransmission, go-back-N after the NAK PSN sequence error of frame 4; first sent in frame 3",
            "frame 9: PSN gap: PSN 16285985 never seen before this packet (lost before the capture point)",
            "frame 11: NAK PSN sequence error: the responder expected PSN 16285985 and got a later one; everything "
                + "before it is acknowledged, the requester goes back to it",
            "frame 12: retransmission triggered by the NAK PSN sequence error of frame 11; its first transmission was "
                + "never captured",
            "frame 13: retransmission, go-back-N after the NAK PSN sequence error of frame 11; first sent in frame 9",
            "frame 14: retransmission, go-back-N after the NAK PSN sequence error of frame 11; first sent in frame 10"),
            ladder.findings);
        assertTrue(ladder.entry("15").noted("answers the RDMA WRITE of frames 9..10 (3000 B) after 3.445 ms"),
            ladder.text);
        assertTrue(ladder.text.contains("  message A->B 2: RDMA WRITE of 3000 B in 3 packets (FIRST, 1 MIDDLE, LAST), "
            + "PSNs 16285985..16285987, frames 9..10; answered by frame 15 after 3.445 ms\n"), ladder.text);
    }

    /** What tshark wrote once in {@code capture}'s {@code .expected.tsv}, counted as explain counts. */
    private static CaptureCounts countsFromTsharkFields(Path capture) throws IOException {
        List<CaptureCounts.Row> rows = new ArrayList<>();
        List<String> lines = Files.readAllLines(tsharkFields(capture));
        List<String> header = List.of(lines.get(0).split("\t", -1));
        // The .tsv holds no addresses, and both ends of most captures are QP 0x11: the frame's
        // addresses, read with the stack's RoceFrame, tell the two flows apart.
        Map<Integer, String> senders = new HashMap<>();
        for (RoceFrame frame : RoceFrame.read(capture)) {
            senders.put(frame.index(), Arrays.toString(frame.src16()));
        }
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split("\t", -1);
            String syndrome = f[header.indexOf("infiniband.aeth.syndrome")];
            rows.add(new CaptureCounts.Row(senders.get(Integer.parseInt(f[0])) + f[header.indexOf("infiniband.bth.destqp")],
                Integer.parseInt(f[header.indexOf("infiniband.bth.opcode")]),
                Integer.parseInt(f[header.indexOf("infiniband.bth.psn")]),
                syndrome.isEmpty() ? -1 : Integer.parseInt(syndrome)));
        }
        return CaptureCounts.of(rows);
    }

    @ParameterizedTest
    @MethodSource("captures")
    void countsMatchWhatTsharkSays(Path capture) throws Exception {
        Tshark tshark = Tshark.require();
        List<CaptureCounts.Row> rows = new ArrayList<>();
        for (String line : tshark.read(capture, "-Y", "udp.dstport == 4791", "-T", "fields", "-E", "occurrence=f",
            "-e", "ip.src", "-e", "ipv6.src", "-e", "ip.dst", "-e", "ipv6.dst", "-e", "infiniband.bth.destqp",
            "-e", "infiniband.deth.srcqp", "-e", "infiniband.bth.opcode", "-e", "infiniband.bth.psn",
            "-e", "infiniband.aeth.syndrome")) {
            String[] f = line.split("\t", -1);
            String flow = f[0] + f[1] + ">" + f[2] + f[3] + "/" + f[4] + "/" + f[5];
            rows.add(new CaptureCounts.Row(flow, Integer.parseInt(f[6]), Integer.parseInt(f[7]),
                f[8].isEmpty() ? -1 : Integer.parseInt(f[8])));
        }
        assertTrue(!rows.isEmpty(), capture.toString());
        assertEquals(CaptureCounts.of(rows), CaptureCounts.of(explain(capture.toString())), capture.toString());
    }
}
