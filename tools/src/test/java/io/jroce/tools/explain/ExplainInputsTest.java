package io.jroce.tools.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.stack.pcap.PcapReader;
import io.jroce.stack.wire.AethSyndrome;
import io.jroce.stack.wire.NakCode;
import io.jroce.stack.wire.Opcode;
import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code jroce explain} reads and how it refuses what it cannot: bad files, the capture
 * formats and link layers, GSO super-datagrams, PSN wrap, opcode-sequence errors, bad ICRCs, NAK
 * codes, and its options ({@code --packet}, {@code --mermaid}, the filters).
 */
class ExplainInputsTest {
    private static final Path RC_V6 = ExplainRxeCapturesTest.CAPTURES.resolve("rxe-rc_pingpong_v6.pcap");
    private static final Path RPING = ExplainRxeCapturesTest.CAPTURES.resolve("rxe-rping.pcap");

    @TempDir
    Path dir;

    private static CommandRunner run(String... args) throws InterruptedException {
        String[] all = new String[args.length + 1];
        all[0] = "explain";
        System.arraycopy(args, 0, all, 1, args.length);
        return CommandRunner.run(all);
    }

    /** Exit status 1, one line on stderr that says {@code why}, nothing on stdout, no stack trace. */
    private static void refused(CommandRunner r, String why) {
        assertEquals(ExitStatus.FAILED, r.status(), r.transcript());
        assertEquals("", r.out(), r.transcript());
        assertTrue(r.err().startsWith("jroce explain: ") && r.err().contains(why), r.transcript());
        assertEquals(1, r.err().lines().count(), r.transcript());
        assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), r.transcript());
    }

    @Test
    void badFilesAreRefusedWithAClearMessage() throws Exception {
        refused(run(dir.resolve("missing.pcap").toString()), "missing.pcap: no such file");
        Path empty = Files.createFile(dir.resolve("empty.pcap"));
        refused(run(empty.toString()), "empty.pcap: empty file: not a pcap or pcapng capture");
        Path text = Files.writeString(dir.resolve("notes.txt"), "these are notes, not packets\n");
        refused(run(text.toString()), "notes.txt: not a pcap or pcapng file: it starts with 74 68 65 73 65 20 61 72");
        byte[] whole = Files.readAllBytes(RC_V6);
        Path cut = Files.write(dir.resolve("cut.pcap"), Arrays.copyOf(whole, whole.length - 100));
        refused(run(cut.toString()), "cut.pcap: truncated pcap record 79: 1028 bytes left of 1030 captured");
        Path dir2 = Files.createDirectory(dir.resolve("a-directory"));
        refused(run(dir2.toString()), "a-directory");
    }

    /**
     * Captures damaged at random (bytes changed anywhere, including lengths, opcodes and the
     * headers of records and blocks; cut anywhere) are explained or refused, never crash: exit
     * status 0 or 1 and no stack trace. The seed is in the failure message.
     */
    @Test
    void damagedCapturesAreExplainedOrRefusedNeverACrash() throws Exception {
        for (Path capture : List.of(RC_V6, RPING)) {
            byte[] pcap = Files.readAllBytes(capture);
            Path ng = dir.resolve("ng.pcapng");
            CaptureFiles.pcapng(CaptureFiles.records(capture), ng);
            for (byte[] original : List.of(pcap, Files.readAllBytes(ng))) {
                for (long seed = 0; seed < 60; seed++) {
                    java.util.Random rnd = new java.util.Random(seed);
                    byte[] damaged = original.clone();
                    for (int i = 0, n = 1 + rnd.nextInt(8); i < n; i++) {
                        damaged[rnd.nextInt(damaged.length)] = (byte) rnd.nextInt(256);
                    }
                    if (rnd.nextInt(4) == 0) {
                        damaged = Arrays.copyOf(damaged, rnd.nextInt(damaged.length));
                    }
                    Path f = Files.write(dir.resolve("damaged-" + seed), damaged);
                    for (String[] args : List.of(new String[] {f.toString()}, new String[] {"--packet", "3", f.toString()},
                        new String[] {"--mermaid", f.toString()})) {
                        CommandRunner r = run(args);
                        String where = capture + " seed " + seed + " " + Arrays.toString(args) + "\n" + r.transcript();
                        assertTrue(r.status() == ExitStatus.OK || r.status() == ExitStatus.FAILED, where);
                        assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), where);
                    }
                }
            }
        }
    }

    @Test
    void aCaptureWithoutRoceSaysWhatItHolds() throws Exception {
        List<PcapReader.Record> records = CaptureFiles.records(RC_V6);
        Path other = dir.resolve("other-port.pcap");
        // The same frames sent to UDP port 4792: nothing for explain unless told that port carries RoCE.
        List<PcapReader.Record> moved = records.stream().map(r -> {
            byte[] d = r.data().clone();
            d[14 + 40 + 2] = 0x12;
            d[14 + 40 + 3] = (byte) 0xB8;
            return new PcapReader.Record(r.index(), r.timestampNs(), r.originalLength(), r.linkType(), d);
        }).toList();
        CaptureFiles.pcapng(moved, other);
        refused(run(other.toString()), "other-port.pcap: no RoCEv2 packets (UDP port 4791) among its 80 frames; "
            + "skipped 80 frames (80 UDP to another port than RoCEv2's)");
        CommandRunner r = run("--port", "4792", other.toString());
        assertEquals(0, r.status(), r.transcript());
        assertTrue(r.out().contains("80 RoCEv2 packets in 1 connection"), r.transcript());
    }

    @Test
    void pcapngAndLinuxCookedAndRawIpCapturesReadAsTheirPcap() throws Exception {
        String expected = ladderOnly(run(RC_V6.toString()));
        List<PcapReader.Record> records = CaptureFiles.records(RC_V6);
        Path ng = dir.resolve("v6.pcapng");
        CaptureFiles.pcapng(records, ng);
        Path sll = dir.resolve("v6-sll.pcap");
        CaptureFiles.relinked(records, PcapReader.LINKTYPE_LINUX_SLL, sll);
        Path raw = dir.resolve("v6-raw.pcap");
        CaptureFiles.relinked(records, PcapReader.LINKTYPE_RAW, raw);
        for (Path p : List.of(ng, sll, raw)) {
            assertEquals(expected, ladderOnly(run(p.toString())), p.toString());
        }
    }

    /** The output after its first line, which names the file. */
    private static String ladderOnly(CommandRunner r) {
        assertEquals(0, r.status(), r.transcript());
        return r.out().substring(r.out().indexOf('\n'));
    }

    /**
     * A real capture of {@code jroce write_bw} on loopback taken by dumpcap (pcapng), where UDP
     * GSO sends runs of packets as one super-datagram: 12 frames hold 45 packets.
     */
    @Test
    void gsoSuperDatagramsAreCutIntoTheirPackets() throws Exception {
        Path gso = dir.resolve("gso.pcapng");
        try (InputStream in = getClass().getResourceAsStream("jroce-write_bw-gso.pcapng")) {
            Files.copy(in, gso);
        }
        CommandRunner r = run("--udp-port", "24791", gso.toString());
        assertEquals(0, r.status(), r.transcript());
        Ladder ladder = new Ladder(r.out());
        assertTrue(r.out().startsWith(gso + ": 12 frames, 45 RoCEv2 packets in 1 connection\n"), r.transcript());
        assertEquals(45, ladder.entries.size());
        assertEquals("|-- RC_RDMA_WRITE_FIRST psn 14017087 va 0x7f479844a000 rkey 0xe0ed0d1a len 8192 1024 B -->|",
            ladder.entry("1.1").arrow());
        assertEquals("|-- RC_RDMA_WRITE_MIDDLE psn 14017088 1024 B -------------------------->|",
            ladder.entry("1.2").arrow());
        assertEquals("|<----------------------------- RC_ACKNOWLEDGE psn 14017102 msn 2 ACK --|",
            ladder.entry("11.2").arrow());
        assertEquals(List.of(), ladder.findings, r.out());
        assertEquals(5, ladder.total(Ladder.Row::messages));
        assertEquals(5, ladder.total(Ladder.Row::acks));
    }

    @Test
    void psnsWrapAroundWithoutAGap() throws Exception {
        Path f = dir.resolve("wrap.pcap");
        try (SyntheticCapture c = new SyntheticCapture(f)) {
            c.request(Opcode.RC_SEND_FIRST, 0xFFFFFF, 256, false).request(Opcode.RC_SEND_MIDDLE, 0, 256, false)
                .request(Opcode.RC_SEND_LAST, 1, 100, true).ack(1, 1);
        }
        CommandRunner r = run(f.toString());
        Ladder ladder = new Ladder(r.out());
        assertEquals(List.of(), ladder.findings, r.transcript());
        assertEquals(List.of("message: SEND of 612 B in 3 packets (FIRST, 1 MIDDLE, LAST), PSNs 16777215..1, frames 1..3"),
            ladder.entry("3").notes());
        assertTrue(ladder.entry("4").noted("answers the SEND of frames 1..3 (612 B) after "), ladder.text);
    }

    @Test
    void sequenceErrorsBadIcrcsAndNakCodesAreNamed() throws Exception {
        Path f = dir.resolve("errors.pcap");
        try (SyntheticCapture c = new SyntheticCapture(f)) {
            c.request(Opcode.RC_SEND_MIDDLE, 10, 256, false)
                .request(Opcode.RC_SEND_FIRST, 11, 256, false)
                .request(Opcode.RC_RDMA_WRITE_LAST, 12, 4, true)
                .corruptRequest(Opcode.RC_SEND_ONLY, 13, 8)
                .ack(13, 0, AethSyndrome.nak(NakCode.INVALID_REQUEST))
                .ack(13, 0, AethSyndrome.nak(NakCode.REMOTE_ACCESS_ERROR))
                .ack(13, 0, AethSyndrome.nak(NakCode.REMOTE_OPERATIONAL_ERROR))
                .ack(13, 0, AethSyndrome.rnrNak(0))
                .ack(13, 0, AethSyndrome.ack(5));
        }
        Ladder ladder = new Ladder(run(f.toString()).out());
        assertEquals(List.of("opcode sequence error: RC_SEND_MIDDLE without a FIRST"), ladder.entry("1").notes());
        assertEquals(List.of("opcode sequence error: RC_RDMA_WRITE_LAST inside the SEND message begun in frame 2"),
            ladder.entry("3").notes());
        assertTrue(ladder.entry("4").notes().get(0).matches("bad ICRC: 0x[0-9a-f]{8} on the wire does not match the "
            + "headers and payload; a receiver drops the packet"), ladder.entry("4").toString());
        assertTrue(ladder.entry("5").arrow().contains("RC_ACKNOWLEDGE psn 13 msn 0 NAK invalid request"));
        assertTrue(ladder.entry("5").noted("NAK invalid request: the responder refused the request"));
        assertTrue(ladder.entry("6").arrow().contains("NAK remote access error"));
        assertTrue(ladder.entry("6").noted("the R_Key, address or access rights did not allow the access: the "
            + "requester completes the work request in error and its QP goes to the error state"));
        assertTrue(ladder.entry("7").arrow().contains("NAK remote operational error"));
        assertTrue(ladder.entry("8").arrow().contains("RNR NAK, timer 0 = 655.360 ms"));
        assertTrue(ladder.entry("9").arrow().contains("msn 0 ACK, 5 credits"));
        Ladder.Row a = ladder.rows.get(0);
        assertEquals(3, ladder.rows.get(1).naks());
        assertEquals(1, ladder.rows.get(1).rnrNaks());
        assertEquals(4, a.packets());
        assertTrue(ladder.text.contains("1 bad ICRC, 2 opcode sequence errors"), ladder.text);
    }

    @Test
    void onePacketFieldByField() throws Exception {
        CommandRunner r = run("--packet", "5", ExplainRxeCapturesTest.CAPTURES.resolve("rxe-rc_pingpong_v4.pcap").toString());
        assertEquals(0, r.status(), r.transcript());
        String out = r.out();
        assertTrue(out.startsWith("frame 5, 0.011905 s after the first, 62 bytes captured, connection 1 (B to A)\n"
            + "  RC_ACKNOWLEDGE psn 10302849 msn 1 ACK\n"), out);
        for (String line : List.of(
            "  Ethernet II (IEEE 802.3), at byte 0, 14 bytes",
            "  IPv4 (RFC 791), at byte 14, 20 bytes",
            "    source                 10.77.0.2                the sender: its RoCEv2 GID is this address, IPv4-mapped",
            "  UDP (RFC 768; IBTA Annex A17 for RoCEv2), at byte 34, 8 bytes",
            "    destination port       4791                     4791 = RoCEv2 (IANA)",
            "  BTH, Base Transport Header (IBTA Vol. 1 9.2), 12 bytes",
            "    OpCode                 0x11                     RC_ACKNOWLEDGE: RC ACKNOWLEDGE ONLY (the top 3 bits name "
                + "the transport, the low 5 the operation)",
            "    PSN                    10302849                 packet sequence number, 24 bits, wraps at 2^24",
            "  AETH, ACK Extended Transport Header (IBTA Vol. 1 9.3), 4 bytes",
            "    Syndrome               0x1f                     ACK; bits 6-5 = 00 ACK, low 5 bits the credit count (31 = "
                + "none reported)",
            "    MSN                    1                        message sequence number: requests the responder completed",
            "  ICRC, Invariant CRC (IBTA Annex A17), 4 bytes")) {
            assertTrue(out.contains(line + "\n"), () -> "no line\n" + line + "\nin\n" + out);
        }
        assertTrue(out.contains("verifies: CRC-32 over the invariant fields"), out);
        CommandRunner rping = run("--packet", "1", RPING.toString());
        assertTrue(rping.out().contains("  DETH, Datagram Extended Transport Header (IBTA Vol. 1 9.3), 8 bytes\n"
            + "    Q_Key                  0x80010000               must match the receiving UD QP's Q_Key (0x80010000: "
            + "the GSI's, QP1)\n"), rping.transcript());
        refused(run("--packet", "5000", RC_V6.toString()), "frame 5000 is not a RoCEv2 packet of this capture (80 frames)");
    }

    @Test
    void mermaidDrawsOneArrowPerPacket() throws Exception {
        CommandRunner r = run("--mermaid", "--packets", "1-5", ExplainRxeCapturesTest.CAPTURES.resolve(
            "rxe-rc_pingpong_v4.pcap").toString());
        assertEquals(0, r.status(), r.transcript());
        assertEquals("""
            sequenceDiagram
                participant A as 10.77.0.3 QP 0x000011
                participant B as 10.77.0.2 QP 0x000011
                A->>B: 1 0.000000 s RC_SEND_FIRST psn 10302846 1024 B
                A->>B: 2 0.000567 s RC_SEND_MIDDLE psn 10302847 1024 B
                A->>B: 3 0.000712 s RC_SEND_MIDDLE psn 10302848 1024 B
                A->>B: 4 0.002343 s RC_SEND_LAST psn 10302849 AckReq 1024 B
                Note over A,B: message: SEND of 4096 B in 4 packets (FIRST, 2 MIDDLE, LAST), PSNs 10302846..10302849, frames 1..4
                B-->>A: 5 0.011905 s RC_ACKNOWLEDGE psn 10302849 msn 1 ACK
                Note over A,B: answers the SEND of frames 1..4 (4096 B) after 11.905 ms

            """, r.out());
    }

    @Test
    void filtersChooseConnectionsTimesAndFrames() throws Exception {
        String rping = RPING.toString();
        Ladder both = new Ladder(run(rping).out());
        Ladder qp1 = new Ladder(run("--qp", "1", rping).out());
        Ladder rc = new Ladder(run("--qp", "0x11", rping).out());
        assertEquals(both.entries.size(), qp1.entries.size() + rc.entries.size());
        assertTrue(qp1.entries.values().stream().allMatch(e -> e.arrow().contains("UD_SEND_ONLY")), qp1.text);
        Ladder frames = new Ladder(run("--packets", "10-12", rping).out());
        assertEquals(List.of("10", "11", "12"), List.copyOf(frames.entries.keySet()));
        Ladder late = new Ladder(run("--from", "0.07", "--to", "0.08", rping).out());
        assertFalse(late.entries.isEmpty());
        assertTrue(late.entries.keySet().stream().allMatch(f -> both.text.lines().anyMatch(l ->
            l.matches(" *" + f + " +0\\.07\\d{4}  \\|.*"))), late.text);
        refused(run("--qp", "0x99", rping), "no connection with QP 0x000099");
        String v4 = ExplainRxeCapturesTest.CAPTURES.resolve("rxe-rc_pingpong_v4.pcap").toString();
        CommandRunner early = run("--packets", "1-10", v4);
        assertTrue(early.out().contains("\nfindings in the frames shown: none (no gap,"), early.transcript());
        assertEquals(2, early.out().lines().filter(l -> l.startsWith("  message ")).count(), early.transcript());
        Ladder around = new Ladder(run("--packets", "700-712", v4).out());
        assertEquals(List.of("frame 707: duplicate of frame 706: the same PSN again 555.0 us later with no NAK or timeout "
            + "before it (a copy made on the way)"), around.findings, around.text);
        CommandRunner usage = run("--packets", "9-3", rping);
        assertEquals(ExitStatus.USAGE, usage.status(), usage.transcript());
        assertTrue(usage.err().contains("--packets: 9-3 ends before it starts"), usage.transcript());
        assertEquals(ExitStatus.USAGE, run().status());
        assertEquals(ExitStatus.USAGE, run("--from", "soon", rping).status());
    }

    @Test
    void helpDescribesEveryOption() throws Exception {
        CommandRunner r = CommandRunner.run("explain", "--help");
        assertEquals(0, r.status());
        for (String option : List.of("--qp N", "--from S", "--to S", "--packets A-B", "--packet N", "--mermaid", "--udp-port N")) {
            assertTrue(r.out().contains("  " + option), r.out());
        }
        assertTrue(CommandRunner.run("help").out().contains("  explain      explain a RoCEv2 capture"));
    }

    static List<PcapReader.Record> read(Path p) throws IOException {
        try (InputStream in = Files.newInputStream(p)) {
            return PcapReader.read(in);
        }
    }
}
