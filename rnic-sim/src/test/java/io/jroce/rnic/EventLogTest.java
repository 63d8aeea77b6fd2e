package io.jroce.rnic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.stack.fault.FaultRule;
import io.jroce.stack.fault.PacketMatch;
import io.jroce.testsupport.PinnedText;
import io.jroce.testsupport.RcPair;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.RemoteQp;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WrOpcode;
import io.jroce.verbs.SharedReceiveQueue;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;

/**
 * The event log of a seeded fabric run (a 3000-byte SEND whose second packet the fabric loses) is
 * the same bytes every run and equal to the pinned file; every record is a JSON text sequence
 * record of the documented shape (docs/event-log.md); the loss shows as a NAK and a retry; a device
 * without a log writes nothing.
 */
class EventLogTest {
    private static final Path GOLDEN = Path.of("src/test/resources/event-log/lost-middle.jsonseq");
    /** Every record name docs/event-log.md lists, with the data fields each must carry. */
    private static final Map<String, Set<String>> SCHEMA = Map.ofEntries(
        Map.entry("roce:packet_sent", Set.of("frame", "src", "dst", "udp_port", "length")),
        Map.entry("roce:packet_received", Set.of("arrival", "src", "dst", "udp_port", "length")),
        Map.entry("roce:packet_dropped", Set.of("reason", "count")),
        Map.entry("roce:qp_state_updated", Set.of("qpn", "old", "new")),
        Map.entry("roce:nak_sent", Set.of("qpn", "psn", "syndrome")),
        Map.entry("roce:nak_received", Set.of("qpn", "psn", "syndrome")),
        Map.entry("roce:retry", Set.of("qpn", "from_psn", "cause", "retries_left")),
        Map.entry("roce:rnr_wait", Set.of("qpn", "psn", "delay_ns")),
        Map.entry("roce:psn_state_updated", Set.of("qpn", "side")),
        Map.entry("roce:timer_set", Set.of("qpn", "timer", "timeout_ns")),
        Map.entry("roce:timer_expired", Set.of("qpn", "timer")),
        Map.entry("roce:wqe_posted", Set.of("queue", "wr_id", "length")),
        Map.entry("roce:cqe_generated", Set.of("qpn", "wr_id", "status", "byte_len")),
        Map.entry("roce:fault_injected", Set.of("action", "cause")));

    /** The run: both devices' logs, A's then B's. */
    private static String run() {
        String[] logs = sendOnce(11, 0x101, 3000);
        return logs[0] + logs[1];
    }

    /**
     * One SEND of {@code bytes} from A's QP (first PSN 0x100) to B's on a fabric of {@code seed}
     * that drops the request packet of PSN {@code lostPsn} once; A's log and B's.
     */
    private static String[] sendOnce(long seed, int lostPsn, int bytes) {
        SimulatedFabric fabric = SimulatedFabric.builder().seed(seed).build();
        fabric.faults().add(FaultRule.drop(PacketMatch.psn(lostPsn).and(PacketMatch.requests())).once()
            .named("lose PSN 0x" + Integer.toHexString(lostPsn)));
        return sendOnce(fabric, bytes, 0);
    }

    /**
     * One SEND of {@code bytes} from A's QP (first PSN 0x100) to B's on {@code fabric}; B posts its
     * receive before the SEND, or with {@code recvAfterNs} above 0 that long after it. A's log and B's.
     */
    private static String[] sendOnce(SimulatedFabric fabric, int bytes, long recvAfterNs) {
        ByteArrayOutputStream logA = new ByteArrayOutputStream();
        ByteArrayOutputStream logB = new ByteArrayOutputStream();
        try (RcPair run = new RcPair(
                SoftRnic.builder().name("jroce0").address("10.0.0.1").jmx(false).eventLog(logA).openOn(fabric),
                SoftRnic.builder().name("jroce1").address("10.0.0.2").jmx(false).eventLog(logB).openOn(fabric),
                4096, AccessFlags.LOCAL_WRITE, QpConnector.rc(), 0x100, 0x200)) {
            if (recvAfterNs == 0) {
                run.postReceive(2, 4096);
            }
            run.send(1, bytes);
            if (recvAfterNs > 0) {
                fabric.runFor(recvAfterNs);
                run.postReceive(2, 4096);
            }
            FabricCompletions.await(fabric, run.cqA, 1, ChannelFabricPair.MAX_RUN_NS, () -> "");
        }
        return new String[] {logA.toString(StandardCharsets.UTF_8), logB.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void aSeededRunLogsTheSameBytesAsThePinnedFile() throws IOException {
        String first = run();
        assertEquals(first, run(), "two runs of one seed, two logs");
        PinnedText.assertPinned(GOLDEN, first, "jroce.eventLog.write", "the log");
    }

    /** The schema this test holds records to is docs/event-log.md's table: the same names, each field named in its row. */
    @Test
    void theSchemaIsTheDocumentedOne() throws IOException {
        Map<String, String> documented = new java.util.TreeMap<>();
        for (String line : Files.readAllLines(Path.of("../docs/event-log.md"))) {
            if (line.startsWith("| `roce:")) {
                String[] cells = line.split("\\|");
                java.util.regex.Matcher names = java.util.regex.Pattern.compile("roce:[a-z_]+").matcher(cells[1]);
                while (names.find()) {
                    documented.put(names.group(), cells[2]);
                }
            }
        }
        assertEquals(new java.util.TreeSet<>(SCHEMA.keySet()), documented.keySet());
        SCHEMA.forEach((name, fields) -> fields.forEach(field -> assertTrue(documented.get(name).contains("`" + field
            + "`"), name + ": docs/event-log.md does not name " + field)));
    }

    @Test
    void everyRecordHasTheDocumentedShape() throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        List<JsonNode> records = new ArrayList<>();
        String log = run();
        assertTrue(log.startsWith("\u001e"), "RFC 7464: a record separator before each record");
        for (String text : log.substring(1).split("\u001e")) {
            assertTrue(text.endsWith("\n"), "RFC 7464: a line feed after each record: " + text);
            records.add(mapper.readTree(text));
        }
        JsonNode header = records.get(0);
        assertEquals("jroce-event-log", header.get("format").asText());
        assertEquals(1, header.get("version").asInt());
        assertEquals("virtual", header.get("clock").asText());
        assertEquals("jroce0", header.get("device").asText());
        assertEquals(1, header.get("gids").size());
        List<String> names = new ArrayList<>();
        long lastTime = -1;
        for (JsonNode r : records) {
            if (r.has("format")) {
                lastTime = -1; // the second device's log starts here
                continue;
            }
            String name = r.get("name").asText();
            assertTrue(SCHEMA.containsKey(name), "undocumented record " + r);
            assertTrue(r.get("time").isIntegralNumber(), r.toString());
            assertTrue(r.get("time").asLong() >= lastTime, "time never goes back within a log: " + r);
            lastTime = r.get("time").asLong();
            for (String field : SCHEMA.get(name)) {
                assertTrue(r.get("data").has(field), name + " lacks " + field + ": " + r);
            }
            names.add(name + (r.get("data").has("opcode") ? " " + r.get("data").get("opcode").asText() : ""));
        }
        assertEquals(List.of("{\"action\":\"DROP\",\"cause\":\"lose PSN 0x101 (seen 1, applied 1)\",\"frame\":2,"
            + "\"opcode\":\"RC_SEND_MIDDLE\",\"dst_qpn\":17,\"psn\":257}"), data(records, "roce:fault_injected"),
            "the fabric marks the MIDDLE it lost in A's log, by A's frame number");
        assertTrue(names.contains("roce:nak_sent"), "B NAKs the gap: " + names);
        assertTrue(names.contains("roce:nak_received"), names.toString());
        assertTrue(names.contains("roce:retry"), names.toString());
        assertTrue(names.contains("roce:packet_sent RC_SEND_MIDDLE"), names.toString());
        long sentMiddles = names.stream().filter("roce:packet_sent RC_SEND_MIDDLE"::equals).count();
        long receivedMiddles = names.stream().filter("roce:packet_received RC_SEND_MIDDLE"::equals).count();
        assertEquals(2, sentMiddles, "the lost MIDDLE and its retransmission");
        assertEquals(1, receivedMiddles, "only the retransmission arrived");
        List<String> completions = records.stream().filter(r -> "roce:cqe_generated".equals(r.path("name").asText()))
            .map(r -> r.get("data").toString()).toList();
        assertEquals(List.of("{\"qpn\":17,\"wr_id\":1,\"status\":\"SUCCESS\",\"opcode\":\"SEND\",\"byte_len\":3000}",
            "{\"qpn\":17,\"wr_id\":2,\"status\":\"SUCCESS\",\"opcode\":\"RECV\",\"byte_len\":3000}"), completions,
            "A's SEND and B's RECV, each once");
        List<String> posted = records.stream().filter(r -> "roce:wqe_posted".equals(r.path("name").asText()))
            .map(r -> r.get("data").toString()).toList();
        assertEquals(List.of("{\"queue\":\"send\",\"qpn\":17,\"wr_id\":1,\"opcode\":\"SEND\",\"length\":3000,"
            + "\"signaled\":true}", "{\"queue\":\"recv\",\"qpn\":17,\"wr_id\":2,\"length\":4096}"), posted,
            "A's SEND and B's receive, each as posted");
        List<String> psns = records.stream().filter(r -> "roce:psn_state_updated".equals(r.path("name").asText()))
            .map(r -> r.get("data").toString()).toList();
        assertEquals(List.of(
            "{\"qpn\":17,\"side\":\"requester\",\"next_psn\":259,\"oldest_unacked_psn\":257}",
            "{\"qpn\":17,\"side\":\"requester\",\"next_psn\":259,\"oldest_unacked_psn\":259}",
            "{\"qpn\":17,\"side\":\"responder\",\"expected_psn\":257,\"msn\":0}",
            "{\"qpn\":17,\"side\":\"responder\",\"expected_psn\":258,\"msn\":0}",
            "{\"qpn\":17,\"side\":\"responder\",\"expected_psn\":259,\"msn\":1}"), psns,
            "A: the NAK acknowledges the FIRST, the last ACK all; B: FIRST, the MIDDLE again, LAST ends the message");
    }

    /** The data of every record named {@code name}, as JSON text. */
    private static List<String> data(List<JsonNode> records, String name) {
        return records.stream().filter(r -> name.equals(r.path("name").asText())).map(r -> r.get("data").toString())
            .toList();
    }

    /** A's records then B's, of the 3000-byte SEND on a fabric of seed 11 with {@code rule}. */
    private static List<List<JsonNode>> sendWith(FaultRule rule) throws IOException {
        SimulatedFabric fabric = SimulatedFabric.builder().seed(11).build();
        fabric.faults().add(rule);
        ObjectMapper mapper = new ObjectMapper();
        List<List<JsonNode>> logs = new ArrayList<>();
        for (String log : sendOnce(fabric, 3000, 0)) {
            List<JsonNode> records = new ArrayList<>();
            for (String text : log.substring(1).split("\u001e")) {
                records.add(mapper.readTree(text));
            }
            logs.add(records);
        }
        return logs;
    }

    /** The sender's frame numbers that B's packet_received records carry, in the order they arrived. */
    private static List<Long> framesReceived(List<JsonNode> records) {
        return records.stream().filter(r -> "roce:packet_received".equals(r.path("name").asText()))
            .map(r -> r.get("data").get("frame").asLong()).toList();
    }

    /**
     * On the simulated fabric a received packet carries its sender's frame number: each of B's
     * packet_received names the packet_sent of A with that frame, and it has the same headers.
     */
    @Test
    void aReceivedPacketNamesItsSentFrameOnTheFabric() throws IOException {
        List<List<JsonNode>> logs = sendWith(FaultRule.drop(PacketMatch.psn(0x101).and(PacketMatch.requests())).once()
            .named("lose PSN 0x101"));
        Map<Long, String> sentByA = new java.util.HashMap<>();
        for (JsonNode r : logs.get(0)) {
            if ("roce:packet_sent".equals(r.path("name").asText())) {
                sentByA.put(r.get("data").get("frame").asLong(), headers(r));
            }
        }
        assertEquals(List.of(1L, 3L, 4L, 5L), framesReceived(logs.get(1)), "frame 2, the lost MIDDLE, never arrived");
        for (JsonNode r : logs.get(1)) {
            if ("roce:packet_received".equals(r.path("name").asText())) {
                assertEquals(sentByA.get(r.get("data").get("frame").asLong()), headers(r), r.toString());
            }
        }
    }

    private static String headers(JsonNode r) {
        JsonNode d = r.get("data");
        return d.get("src").asText() + ">" + d.get("dst").asText() + " " + d.get("opcode").asText() + " " + d.get("psn");
    }

    /** A copy made by the fabric: marked in A's log; B receives both, each naming A's one frame. */
    @Test
    void aDuplicatedPacketIsMarkedAndArrivesTwiceWithOneFrame() throws IOException {
        List<List<JsonNode>> logs = sendWith(FaultRule.duplicate(PacketMatch.psn(0x101).and(PacketMatch.requests()))
            .once().named("copy PSN 0x101"));
        assertEquals(List.of("{\"action\":\"DUPLICATE\",\"cause\":\"copy PSN 0x101 (seen 1, applied 1)\",\"frame\":2,"
            + "\"opcode\":\"RC_SEND_MIDDLE\",\"dst_qpn\":17,\"psn\":257}"), data(logs.get(0), "roce:fault_injected"));
        assertEquals(List.of(1L, 2L, 2L, 3L), framesReceived(logs.get(1)), "the copy arrives right after its original");
    }

    /**
     * A bit flipped on the way: marked in A's log; B's transport drops it on its ICRC, so its RNIC
     * never sees it, but B's log has it as an arrival with a bad ICRC, and the drop names it.
     */
    @Test
    void aCorruptedPacketIsMarkedAndDroppedByItsReceiver() throws IOException {
        List<List<JsonNode>> logs = sendWith(FaultRule.corrupt(PacketMatch.psn(0x101).and(PacketMatch.requests()))
            .once().named("flip a bit of PSN 0x101"));
        assertEquals(List.of("{\"action\":\"CORRUPT\",\"cause\":\"flip a bit of PSN 0x101 (seen 1, applied 1)\","
            + "\"frame\":2,\"opcode\":\"RC_SEND_MIDDLE\",\"dst_qpn\":17,\"psn\":257}"),
            data(logs.get(0), "roce:fault_injected"));
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), framesReceived(logs.get(1)), "frame 2 arrived, corrupted");
        List<JsonNode> bad = logs.get(1).stream().filter(r -> r.path("data").has("icrc")).toList();
        assertEquals(1, bad.size(), "one arrival with a bad ICRC: " + bad);
        assertEquals("bad", bad.get(0).get("data").get("icrc").asText());
        assertEquals(2, bad.get(0).get("data").get("arrival").asLong());
        assertEquals(2, bad.get(0).get("data").get("frame").asLong());
        List<String> drops = data(logs.get(1), "roce:packet_dropped");
        assertEquals(1, drops.size(), drops.toString());
        assertTrue(drops.get(0).startsWith("{\"reason\":\"drop_bad_icrc\",\"count\":1,\"arrival\":2,\"frame\":2,"
            + "\"src\":\"10.0.0.1\""), "the drop names the arrival it refused: " + drops);
        int at = logs.get(1).indexOf(bad.get(0));
        assertEquals("roce:packet_dropped", logs.get(1).get(at + 1).path("name").asText(),
            "the drop follows the arrival at once: B's RNIC did nothing with it");
    }

    /**
     * A drop the receiving device counts while it handles an arrival names that arrival: a SEND to
     * a QP B does not have is received (arrival 1) and dropped as drop_unknown_qpn with its
     * sender, opcode, QPN and PSN.
     */
    @Test
    void aDropNamesTheArrivalItRefused() throws IOException {
        SimulatedFabric fabric = SimulatedFabric.builder().seed(5).build();
        ByteArrayOutputStream logB = new ByteArrayOutputStream();
        try (RdmaDevice a = SoftRnic.builder().name("jroce0").address("10.0.0.1").jmx(false).openOn(fabric);
             RdmaDevice b = SoftRnic.builder().name("jroce1").address("10.0.0.2").jmx(false).eventLog(logB)
                 .openOn(fabric);
             ProtectionDomain pdA = a.allocPd();
             CompletionQueue cqA = a.createCq(4);
             MemoryRegion mrA = pdA.allocateMemory(64, AccessFlags.LOCAL_WRITE);
             QueuePair qpA = pdA.createQp(new QpInitAttributes().cq(cqA))) {
            QpConnector.rc().connect(qpA, 0x100, new RemoteQp(0x4242, 0x300, b.gids().get(0)));
            qpA.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).sgList(ScatterGatherEntry.of(mrA, 0, 64)));
            fabric.runFor(1_000_000);
        }
        ObjectMapper mapper = new ObjectMapper();
        List<JsonNode> records = new ArrayList<>();
        for (String text : logB.toString(StandardCharsets.UTF_8).substring(1).split("\u001e")) {
            records.add(mapper.readTree(text));
        }
        List<String> drops = data(records, "roce:packet_dropped");
        assertEquals("{\"reason\":\"drop_unknown_qpn\",\"count\":1,\"arrival\":1,\"src\":\"10.0.0.1\","
            + "\"opcode\":\"RC_SEND_ONLY\",\"dst_qpn\":16962,\"psn\":256}", drops.get(0));
        JsonNode first = records.stream().filter(r -> "roce:packet_received".equals(r.path("name").asText()))
            .findFirst().orElseThrow();
        assertEquals(1, first.get("data").get("arrival").asLong());
        assertEquals(16962, first.get("data").get("dst_qpn").asInt());
    }

    /** A packet held back: marked in A's log; the packets sent after it overtake it. */
    @Test
    void aDelayedPacketIsMarkedAndOvertaken() throws IOException {
        List<List<JsonNode>> logs = sendWith(FaultRule.delay(PacketMatch.psn(0x100).and(PacketMatch.requests()), 500)
            .once().named("hold PSN 0x100 500 ns"));
        assertEquals(List.of("{\"action\":\"DELAY\",\"cause\":\"hold PSN 0x100 500 ns (seen 1, applied 1)\","
            + "\"frame\":1,\"opcode\":\"RC_SEND_FIRST\",\"dst_qpn\":17,\"psn\":256}"),
            data(logs.get(0), "roce:fault_injected"));
        assertEquals(List.of(2L, 3L, 1L, 4L, 5L, 6L), framesReceived(logs.get(1)),
            "FIRST arrives after MIDDLE and LAST; B NAKed the gap, so A sends all three again as frames 4 to 6");
    }

    /**
     * The only packet of a SEND lost once: A's transport timer, set when the packet left, runs out
     * (7 retries left), the retry goes back to the PSN, and the timer is set again for it.
     */
    @Test
    void aLostOnlyPacketLogsTheAckTimerRunningOut() throws IOException {
        String logA = sendOnce(3, 0x100, 64)[0];
        ObjectMapper mapper = new ObjectMapper();
        List<String> timeline = new ArrayList<>();
        for (String text : logA.substring(1).split("\u001e")) {
            JsonNode r = mapper.readTree(text);
            String name = r.path("name").asText();
            if (name.startsWith("roce:timer") || name.equals("roce:retry")) {
                timeline.add(name + " " + r.get("data"));
            }
        }
        long timeoutNs = 4096L << 14; // timeout 14: 4.096 us x 2^14
        assertEquals(List.of(
            "roce:timer_set {\"qpn\":17,\"timer\":\"ack\",\"timeout_ns\":" + timeoutNs + "}",
            "roce:timer_expired {\"qpn\":17,\"timer\":\"ack\",\"retries_left\":7}",
            "roce:retry {\"qpn\":17,\"from_psn\":256,\"cause\":\"TIMEOUT\",\"retries_left\":6}",
            "roce:timer_set {\"qpn\":17,\"timer\":\"ack\",\"timeout_ns\":" + timeoutNs + "}"), timeline);
    }

    /**
     * A SEND to a QP with no receive posted: B answers RNR NAK with its minimum RNR timer (code 12,
     * 0.64 ms); A sets its RNR timer for that delay, and only when it runs out sends the SEND again
     * (the retry, with cause RNR_NAK, is logged then), which the receive posted meanwhile takes.
     */
    @Test
    void anRnrNakLogsTheRnrTimerFromItsSettingToTheRetry() throws IOException {
        long delayNs = 640_000; // RNR timer code 12 (IBTA 9.7.5.2.8, Table 45)
        long tickNs = 100_000;
        String logA = sendOnce(SimulatedFabric.builder().tickNs(tickNs).build(), 64, 200_000)[0];
        ObjectMapper mapper = new ObjectMapper();
        List<String> timeline = new ArrayList<>();
        long setAt = -1;
        long expiredAt = -1;
        for (String text : logA.substring(1).split("\u001e")) {
            JsonNode r = mapper.readTree(text);
            String name = r.path("name").asText();
            JsonNode d = r.path("data");
            if (name.equals("roce:packet_sent") && d.path("opcode").asText().startsWith("RC_SEND")
                || name.equals("roce:packet_received") || name.startsWith("roce:timer") || name.equals("roce:retry")
                || name.equals("roce:nak_received") || name.equals("roce:rnr_wait") || name.equals("roce:cqe_generated")) {
                timeline.add(name + " " + (name.startsWith("roce:packet") ? d.get("opcode").asText() + " psn "
                    + d.get("psn") + (d.has("syndrome") ? " syndrome " + d.get("syndrome") : "") : d));
            }
            if (name.equals("roce:timer_set") && "rnr".equals(d.path("timer").asText())) {
                setAt = r.get("time").asLong();
            } else if (name.equals("roce:timer_expired") && "rnr".equals(d.path("timer").asText())) {
                expiredAt = r.get("time").asLong();
            }
        }
        long ackTimeoutNs = 4096L << 14;
        assertEquals(List.of(
            "roce:packet_sent RC_SEND_ONLY psn 256",
            "roce:timer_set {\"qpn\":17,\"timer\":\"ack\",\"timeout_ns\":" + ackTimeoutNs + "}",
            "roce:packet_received RC_ACKNOWLEDGE psn 256 syndrome 44", // 0b01_01100: RNR NAK, timer 12
            "roce:nak_received {\"qpn\":17,\"psn\":256,\"syndrome\":44}",
            "roce:rnr_wait {\"qpn\":17,\"psn\":256,\"delay_ns\":" + delayNs + "}",
            "roce:timer_set {\"qpn\":17,\"timer\":\"rnr\",\"timeout_ns\":" + delayNs + "}",
            "roce:timer_expired {\"qpn\":17,\"timer\":\"rnr\"}",
            "roce:retry {\"qpn\":17,\"from_psn\":256,\"cause\":\"RNR_NAK\",\"retries_left\":-1}",
            "roce:packet_sent RC_SEND_ONLY psn 256", // the ACK timer, stopped by the RNR NAK, runs again
            "roce:timer_set {\"qpn\":17,\"timer\":\"ack\",\"timeout_ns\":" + ackTimeoutNs + "}",
            "roce:packet_received RC_ACKNOWLEDGE psn 256 syndrome 31", // an ACK, credits not counted
            "roce:cqe_generated {\"qpn\":17,\"wr_id\":1,\"status\":\"SUCCESS\",\"opcode\":\"SEND\",\"byte_len\":64}"),
            timeline, "rnr_retry 7 retries without end (-1)");
        assertTrue(expiredAt - setAt >= delayNs && expiredAt - setAt < delayNs + tickNs,
            "the wait lasts the delay, to the next timer tick: set at " + setAt + ", expired at " + expiredAt);
    }

    /** A receive posted to a shared receive queue belongs to no QP yet: its record names the queue only. */
    @Test
    void anSrqReceiveIsLoggedWithoutAQp() {
        SimulatedFabric fabric = new SimulatedFabric();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (RdmaDevice dev = SoftRnic.builder().name("srq").address("10.0.0.3").jmx(false).eventLog(out).openOn(fabric);
             ProtectionDomain pd = dev.allocPd();
             MemoryRegion mr = pd.allocateMemory(256, AccessFlags.LOCAL_WRITE);
             SharedReceiveQueue srq = pd.createSrq(4, 1)) {
            srq.postRecv(new ReceiveWorkRequest().wrId(7).sgList(ScatterGatherEntry.of(mr, 0, 200)));
        }
        String log = out.toString(StandardCharsets.UTF_8);
        assertTrue(log.contains("\"name\":\"roce:wqe_posted\",\"data\":{\"queue\":\"srq\",\"wr_id\":7,\"length\":200}}"),
            log);
    }

    @Test
    void aDeviceWithoutALogWritesNothingAndAClosedLogTakesNoMore() throws IOException {
        SimulatedFabric fabric = new SimulatedFabric();
        try (RdmaDevice quiet = SoftRnic.builder().name("quiet").address("10.0.0.1").jmx(false).openOn(fabric)) {
            assertFalse(quiet.toString().isEmpty());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RdmaDevice dev = SoftRnic.builder().name("logged").address("10.0.0.2").jmx(false).eventLog(out).openOn(fabric);
        dev.close();
        String closed = out.toString(StandardCharsets.UTF_8);
        assertTrue(closed.startsWith("\u001e{\"format\":\"jroce-event-log\""), closed);
        try (InputStream in = Files.newInputStream(GOLDEN)) {
            assertTrue(in.read() == 0x1e);
        }
    }
}
