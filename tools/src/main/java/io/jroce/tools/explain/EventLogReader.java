package io.jroce.tools.explain;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.jroce.stack.wire.ExtensionHeader;
import io.jroce.stack.wire.OpcodeInfo;
import io.jroce.stack.wire.OpcodeTable;
import io.jroce.stack.wire.RoceV2;
import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;

/**
 * Reads devices' event logs (docs/event-log.md: JSON text sequences, one or several devices' logs
 * in one file, e.g. concatenated with cat) into the packet records explain's analysers take. Every
 * device's sent packets are the capture, as if taken where packets leave their sender; packets a
 * device received from a sender that has no log of its own are added as well. A sent packet whose
 * destination has a log that never received it was lost on the way, as is one its sender's log marks
 * dropped or corrupted by the network (roce:fault_injected, with the rule): it is drawn, and left
 * out of the analysis, which so sees what arrived.
 */
final class EventLogReader {
    /** The byte every record starts with (RFC 7464). */
    static final int RECORD_SEPARATOR = 0x1E;

    private static final Map<String, OpcodeInfo> OPCODES = new HashMap<>();
    /** Dotted IPv4 or colon IPv6 text: what the log writes, and nothing a resolver would look up. */
    private static final Pattern IP_LITERAL = Pattern.compile("[0-9.]+\\.[0-9]+|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*");

    static {
        for (OpcodeInfo info : OpcodeTable.all()) {
            OPCODES.put(info.name(), info);
        }
    }

    /** The packets read, the frames (ordinals from 1) that were lost on the way, and the QPs' state over time. */
    record Result(Capture capture, Set<Integer> lost, Map<Integer, String> lostWhy, QpStateTimeline states) {
    }

    private record Sent(String device, JsonNode record) {
    }

    /**
     * Whether {@code file} starts as an event log does; false for a file it cannot read, which the
     * capture reader then refuses with its own message ("no such file", ...).
     */
    static boolean isEventLog(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return in.read() == RECORD_SEPARATOR;
        } catch (IOException e) {
            return false;
        }
    }

    static Result read(Path file) throws CaptureException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new CaptureException(file + ": " + e.getMessage());
        }
        ObjectMapper mapper = new ObjectMapper();
        Map<String, String> deviceOfAddress = new HashMap<>();
        Map<Gid, String> deviceOfGid = new HashMap<>();
        List<Sent> sent = new ArrayList<>();
        List<Sent> received = new ArrayList<>();
        List<Sent> states = new ArrayList<>();
        String device = null;
        int index = 0;
        for (String chunk : text.split("\u001e", -1)) {
            if (index++ == 0) {
                if (!chunk.isEmpty()) {
                    throw new CaptureException(file + ": not an event log (it must start with the byte 0x1E)");
                }
                continue;
            }
            if (chunk.isBlank()) {
                continue;
            }
            JsonNode r;
            try {
                r = mapper.readTree(chunk);
            } catch (JsonProcessingException e) {
                throw new CaptureException(file + ": record " + (index - 1) + " is not JSON: " + e.getOriginalMessage());
            }
            if (r == null || !r.isObject()) {
                throw new CaptureException(file + ": record " + (index - 1) + " is not a JSON object");
            }
            if (r.has("format")) {
                if (!"jroce-event-log".equals(r.path("format").asText()) || r.path("version").asInt() != 1) {
                    throw new CaptureException(file + ": record " + (index - 1) + ": not a jroce event log of version 1");
                }
                device = r.path("device").asText();
                for (JsonNode named : r.path("gids")) {
                    Gid gid = gid(named.asText());
                    // not a GID: it matches no packet's address, so its device is simply not known
                    deviceOfAddress.put(gid == null ? named.asText() : gid.toInetAddress().getHostAddress(), device);
                    if (gid != null) {
                        deviceOfGid.put(gid, device);
                    }
                }
                continue;
            }
            if (device == null) {
                throw new CaptureException(file + ": record " + (index - 1) + " comes before a log's first record");
            }
            String name = r.path("name").asText();
            if ("roce:packet_sent".equals(name)) {
                sent.add(new Sent(device, r));
            } else if ("roce:packet_received".equals(name)) {
                received.add(new Sent(device, r));
            } else {
                states.add(new Sent(device, r));
            }
        }
        List<Sent> packets = new ArrayList<>(sent);
        for (Sent r : received) {
            if (!deviceOfAddress.containsKey(r.record().path("data").path("src").asText())) {
                packets.add(r); // its sender kept no log: what arrived is all there is
            }
        }
        packets.sort(Comparator.comparingLong(s -> s.record().path("time").asLong()));
        Set<JsonNode> arrived = pairArrivals(sent, received, deviceOfAddress);
        Map<String, String> faults = losses(states);
        List<Packet> out = new ArrayList<>();
        Set<Integer> lost = new HashSet<>();
        Map<Integer, String> why = new HashMap<>();
        long start = packets.isEmpty() ? 0 : packets.get(0).record().path("time").asLong();
        for (Sent s : packets) {
            JsonNode d = s.record().path("data");
            boolean isSent = "roce:packet_sent".equals(s.record().path("name").asText());
            Packet p = packet(out.size(), d, s.record().path("time").asLong(), isSent, file);
            if (p == null) {
                continue;
            }
            out.add(p);
            String dstDevice = deviceOfAddress.get(d.path("dst").asText());
            String fault = isSent ? faults.get(s.device() + "#" + d.path("frame").asLong()) : null;
            if (fault != null) {
                lost.add(p.frame());
                why.put(p.frame(), "LOST on the way: " + s.device() + " sent it, " + fault);
            } else if (isSent && dstDevice != null && !arrived.contains(s.record())) {
                lost.add(p.frame());
                why.put(p.frame(), "LOST on the way: " + s.device() + " sent it, " + dstDevice + "'s log never received it");
            }
        }
        QpStateTimeline timeline = new QpStateTimeline(start);
        deviceOfGid.forEach(timeline::address);
        for (Sent s : states) {
            timeline.add(s.device(), s.record());
        }
        return new Result(new Capture(file.toString(), packets.size(), out, Map.of(), start), lost, why, timeline);
    }

    /**
     * The losses the senders' logs marked (roce:fault_injected DROP or CORRUPT), by device and
     * frame, each as the words of the ladder's note: what the network did, and the rule.
     */
    private static Map<String, String> losses(List<Sent> records) {
        Map<String, String> out = new HashMap<>();
        for (Sent s : records) {
            JsonNode d = s.record().path("data");
            if (!"roce:fault_injected".equals(s.record().path("name").asText()) || !d.has("frame")) {
                continue;
            }
            String what = switch (d.path("action").asText()) {
                case "DROP" -> "the network dropped it";
                case "CORRUPT" -> "the network corrupted it, so its receiver dropped it on its ICRC";
                default -> null; // a copy or a delay: the packet still arrives
            };
            if (what != null) {
                out.put(s.device() + "#" + d.path("frame").asLong(), what + " (fault: " + d.path("cause").asText() + ")");
            }
        }
        return out;
    }

    /**
     * The sends that arrived. An arrival that names its sender's frame (on the simulated fabric)
     * pairs with that send. Any other pairs with the latest send of the same ends, QP, opcode and
     * PSN that went before it and is not paired yet: a retransmission repeats a PSN, and when the
     * first transmission was lost, the arrival is the retransmission's. Needs one clock for both
     * logs (the fabric's virtual clock, or one JVM's).
     */
    private static Set<JsonNode> pairArrivals(List<Sent> sent, List<Sent> received, Map<String, String> deviceOfAddress) {
        Map<String, List<JsonNode>> sends = new HashMap<>();
        Map<String, JsonNode> byFrame = new HashMap<>();
        for (Sent s : sent) {
            sends.computeIfAbsent(key(s.record().path("data")), k -> new ArrayList<>()).add(s.record());
            byFrame.put(s.device() + "#" + s.record().path("data").path("frame").asLong(), s.record());
        }
        Set<JsonNode> paired = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Sent> arrivals = new ArrayList<>(received);
        arrivals.sort(Comparator.comparingLong((Sent r) -> r.record().path("time").asLong()).reversed());
        for (Sent r : arrivals) {
            JsonNode d = r.record().path("data");
            JsonNode framed = d.has("frame") ? byFrame.get(deviceOfAddress.get(d.path("src").asText()) + "#"
                + d.path("frame").asLong()) : null;
            if (framed != null) {
                paired.add(framed);
                continue;
            }
            long at = r.record().path("time").asLong();
            List<JsonNode> candidates = sends.getOrDefault(key(r.record().path("data")), List.of());
            for (int i = candidates.size() - 1; i >= 0; i--) {
                JsonNode send = candidates.get(i);
                if (send.path("time").asLong() <= at && !paired.contains(send)) {
                    paired.add(send);
                    break;
                }
            }
        }
        return paired;
    }

    /** What pairs a send with its arrival: the ends, the QP, the opcode and the PSN. */
    private static String key(JsonNode d) {
        return d.path("src").asText() + ">" + d.path("dst").asText() + "/" + d.path("dst_qpn").asInt() + "/"
            + d.path("opcode").asText() + "/" + d.path("psn").asInt();
    }

    private static Packet packet(int ordinal, JsonNode d, long timeNs, boolean sent, Path file)
        throws CaptureException {
        if (d.has("malformed")) {
            return null;
        }
        OpcodeInfo info = OPCODES.get(d.path("opcode").asText());
        if (info == null) {
            throw new CaptureException(file + ": unknown opcode '" + d.path("opcode").asText() + "'");
        }
        for (String required : new String[] {"dst_qpn", "psn", "payload"}) {
            field(d, required, info, file);
        }
        int peerPort = d.path("udp_port").asInt(RoceV2.UDP_PORT);
        Endpoint src = new Endpoint(address16(d.get("src"), file), sent ? RoceV2.UDP_PORT : peerPort);
        Endpoint dst = new Endpoint(address16(d.get("dst"), file), sent ? peerPort : RoceV2.UDP_PORT);
        Packet.Bth bth = new Packet.Bth(info.opcode(), false, false, 0, 0, 0xFFFF, false, false,
            d.path("dst_qpn").asInt(), d.path("ack_req").asBoolean(), d.path("psn").asInt());
        ExtHeaders ext = new ExtHeaders(
            info.has(ExtensionHeader.DETH) ? new ExtHeaders.Deth(0, (int) field(d, "src_qpn", info, file)) : null,
            info.has(ExtensionHeader.RETH) ? new ExtHeaders.Reth(field(d, "va", info, file),
                (int) field(d, "rkey", info, file), field(d, "dma_length", info, file)) : null,
            info.has(ExtensionHeader.ATOMIC_ETH) ? new ExtHeaders.AtomicEth(field(d, "va", info, file),
                (int) field(d, "rkey", info, file), field(d, "swap_add", info, file), field(d, "compare", info, file))
                : null,
            info.has(ExtensionHeader.AETH) ? new ExtHeaders.Aeth((int) field(d, "syndrome", info, file),
                (int) field(d, "msn", info, file)) : null,
            info.has(ExtensionHeader.ATOMIC_ACK_ETH) ? field(d, "original", info, file) : null,
            info.has(ExtensionHeader.IMM_DT) ? (int) field(d, "imm", info, file) : null,
            info.has(ExtensionHeader.IETH) ? (int) field(d, "invalidate_rkey", info, file) : null);
        return new Packet(ordinal, ordinal + 1, 0, timeNs, src, dst, src.port(), info, bth, ext,
            d.path("payload").asInt(), true, null, null);
    }

    /** A number the opcode's headers require; a record without it is refused, never half read. */
    private static long field(JsonNode d, String name, OpcodeInfo info, Path file) throws CaptureException {
        JsonNode v = d.get(name);
        if (v == null || !v.isIntegralNumber()) {
            throw new CaptureException(file + ": a " + info.name() + " record without the number '" + name + "'");
        }
        return v.asLong();
    }

    /** An IP literal (never a name to look up), as its 16-byte GID (IPv4 as IPv4-mapped). */
    private static byte[] address16(JsonNode field, Path file) throws CaptureException {
        String text = field == null || !field.isTextual() ? String.valueOf(field) : field.asText();
        if (field == null || !field.isTextual() || !IP_LITERAL.matcher(text).matches()) {
            throw new CaptureException(file + ": '" + text + "' is not an IP address");
        }
        try {
            return Gid.parse(text).toBytes();
        } catch (InvalidAttributeException e) {
            throw new CaptureException(file + ": '" + text + "' is not an IP address");
        }
    }

    /** A GID as the log's header writes it (Gid's colon form), or null when it is not one. */
    private static Gid gid(String text) {
        try {
            return Gid.fromWireHex(text.replace(":", ""));
        } catch (RuntimeException e) {
            return null;
        }
    }
}
