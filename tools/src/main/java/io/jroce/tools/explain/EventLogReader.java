package io.jroce.tools.explain;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
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
 * device received from a sender that has no log of its own are added as well. What the network did
 * to a sent packet (lost, held back, copied) is {@link FaultFinder}'s: a lost one is drawn, and left
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

    /**
     * The packets read, what the network did to some of them (by frame, an ordinal from 1), and the
     * QPs' state over time.
     */
    record Result(Capture capture, Map<Integer, NetworkFault> faults, QpStateTimeline states) {
        /** The frames lost on the way. */
        Set<Integer> lost() {
            return NetworkFault.lost(faults);
        }
    }

    /** A record of {@code device}'s log. */
    record Sent(String device, JsonNode record) {
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
        List<Packet> out = new ArrayList<>();
        List<Sent> sources = new ArrayList<>();
        long start = packets.isEmpty() ? 0 : packets.get(0).record().path("time").asLong();
        for (Sent s : packets) {
            Packet p = packet(out.size(), s.record().path("data"), s.record().path("time").asLong(),
                "roce:packet_sent".equals(s.record().path("name").asText()), file);
            if (p != null) {
                out.add(p);
                sources.add(s);
            }
        }
        Map<Integer, NetworkFault> faults = new FaultFinder(sent, received, states, deviceOfAddress)
            .faults(sources, out);
        QpStateTimeline timeline = new QpStateTimeline(start);
        deviceOfGid.forEach(timeline::address);
        for (Sent s : states) {
            timeline.add(s.device(), s.record());
        }
        return new Result(new Capture(file.toString(), packets.size(), out, Map.of(), start), faults, timeline);
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
            d.path("payload").asInt(), !"bad".equals(d.path("icrc").asText()), null, null);
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
