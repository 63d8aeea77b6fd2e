package io.jroce.tools.explain;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the network did to each sent packet of event logs (docs/event-log.md): the sender's
 * {@code roce:fault_injected} markers (DROP and CORRUPT lose it, DELAY holds it back, DUPLICATE
 * delivers it twice, each with its rule), and, where the receiver kept a log too, its arrivals: a
 * packet it never received was lost, a delayed one arrived that much later, overtaken by the packets
 * that arrived before it.
 */
final class FaultFinder {
    /** A sent record's arrivals at its receiver, by identity: a retransmission's record equals its original's. */
    private final Map<JsonNode, List<Long>> arrivals;
    /** The markers of each sent packet, by device and frame. */
    private final Map<String, List<JsonNode>> markers = new HashMap<>();
    private final Map<String, String> deviceOfAddress;

    FaultFinder(List<EventLogReader.Sent> sent, List<EventLogReader.Sent> received, List<EventLogReader.Sent> others,
                Map<String, String> deviceOfAddress) {
        this.deviceOfAddress = deviceOfAddress;
        this.arrivals = pairArrivals(sent, received, deviceOfAddress);
        for (EventLogReader.Sent s : others) {
            JsonNode d = s.record().path("data");
            if ("roce:fault_injected".equals(s.record().path("name").asText()) && d.has("frame")) {
                markers.computeIfAbsent(s.device() + "#" + d.path("frame").asLong(), k -> new ArrayList<>()).add(d);
            }
        }
    }

    /**
     * The faults of {@code packets} (the ladder's, read from {@code sources} in the same order), by
     * frame; a packet the network left alone has none.
     */
    Map<Integer, NetworkFault> faults(List<EventLogReader.Sent> sources, List<Packet> packets) {
        Map<Integer, NetworkFault> out = new HashMap<>();
        for (int i = 0; i < packets.size(); i++) {
            EventLogReader.Sent s = sources.get(i);
            if (!"roce:packet_sent".equals(s.record().path("name").asText())) {
                continue; // an arrival from a sender without a log: it is there
            }
            JsonNode d = s.record().path("data");
            String receiver = deviceOfAddress.get(d.path("dst").asText());
            List<Long> arrived = arrivals.getOrDefault(s.record(), List.of());
            List<NetworkFault.Kind> kinds = new ArrayList<>();
            List<String> notes = new ArrayList<>();
            for (JsonNode m : markers.getOrDefault(s.device() + "#" + d.path("frame").asLong(), List.of())) {
                String rule = " (fault: " + m.path("cause").asText() + ")";
                switch (m.path("action").asText()) {
                    case "DROP" -> add(kinds, notes, NetworkFault.Kind.LOST, "LOST on the way: " + s.device()
                        + " sent it, the network dropped it" + rule);
                    case "CORRUPT" -> add(kinds, notes, NetworkFault.Kind.LOST, "LOST on the way: " + s.device()
                        + " sent it, the network corrupted it, so its receiver dropped it on its ICRC" + rule);
                    case "DELAY" -> add(kinds, notes, NetworkFault.Kind.DELAYED, "DELAYED on the way: " + s.device()
                        + " sent it, the network held it back" + rule + (arrived.isEmpty() ? ""
                        : "; " + receiver + " received it " + Durations.format(arrived.get(0) - timeOf(s))
                        + " after it was sent" + overtaken(i, sources, packets)));
                    case "DUPLICATE" -> add(kinds, notes, NetworkFault.Kind.DUPLICATED, "DUPLICATED on the way: "
                        + s.device() + " sent it once, the network delivered a copy too" + rule
                        + (arrived.size() < 2 ? "" : "; " + receiver + " received it " + times(arrived.size())));
                    default -> {
                        // an action this version does not know: the packet is drawn as sent
                    }
                }
            }
            if (receiver != null && arrived.isEmpty() && !kinds.contains(NetworkFault.Kind.LOST)) {
                add(kinds, notes, NetworkFault.Kind.LOST, "LOST on the way: " + s.device() + " sent it, " + receiver
                    + "'s log never received it");
            }
            if (!kinds.isEmpty()) {
                long arrivedNs = kinds.contains(NetworkFault.Kind.DELAYED) && !arrived.isEmpty() ? arrived.get(0)
                    : NetworkFault.UNKNOWN;
                out.put(packets.get(i).frame(), new NetworkFault(Collections.min(kinds), notes, arrivedNs));
            }
        }
        return out;
    }

    private static void add(List<NetworkFault.Kind> kinds, List<String> notes, NetworkFault.Kind kind, String note) {
        kinds.add(kind);
        notes.add(note);
    }

    private static String times(int n) {
        return n == 2 ? "twice" : n + " times";
    }

    /**
     * The packets sent after packet {@code i} on the same way (sender to receiver) that arrived
     * before it, as {@code ", overtaken by frames 2, 3"}; empty when none did.
     */
    private String overtaken(int i, List<EventLogReader.Sent> sources, List<Packet> packets) {
        JsonNode d = sources.get(i).record().path("data");
        long arrived = arrivals.get(sources.get(i).record()).get(0);
        List<String> frames = new ArrayList<>();
        for (int j = i + 1; j < packets.size(); j++) {
            JsonNode e = sources.get(j).record().path("data");
            List<Long> at = arrivals.get(sources.get(j).record());
            if (at != null && !at.isEmpty() && at.get(0) < arrived && e.path("src").equals(d.path("src"))
                && e.path("dst").equals(d.path("dst"))) {
                frames.add(packets.get(j).label());
            }
        }
        return frames.isEmpty() ? "" : ", overtaken by frame" + (frames.size() == 1 ? " " : "s ")
            + String.join(", ", frames);
    }

    private static long timeOf(EventLogReader.Sent s) {
        return s.record().path("time").asLong();
    }

    /**
     * The arrivals of each send, in time order. An arrival that names its sender's frame (on the
     * simulated fabric) pairs with that send (a copy the network made names it too). Any other pairs
     * with the latest send of the same ends, QP, opcode and PSN that went before it and is not
     * paired yet: a retransmission repeats a PSN, and when the first transmission was lost, the
     * arrival is the retransmission's. Needs one clock for both logs (the fabric's virtual clock, or
     * one JVM's).
     */
    private static Map<JsonNode, List<Long>> pairArrivals(List<EventLogReader.Sent> sent,
                                                          List<EventLogReader.Sent> received,
                                                          Map<String, String> deviceOfAddress) {
        Map<String, List<JsonNode>> sends = new HashMap<>();
        Map<String, JsonNode> byFrame = new HashMap<>();
        for (EventLogReader.Sent s : sent) {
            sends.computeIfAbsent(key(s.record().path("data")), k -> new ArrayList<>()).add(s.record());
            byFrame.put(s.device() + "#" + s.record().path("data").path("frame").asLong(), s.record());
        }
        Map<JsonNode, List<Long>> paired = new IdentityHashMap<>();
        List<EventLogReader.Sent> arrivals = new ArrayList<>(received);
        arrivals.sort(Comparator.comparingLong((EventLogReader.Sent r) -> timeOf(r)).reversed());
        for (EventLogReader.Sent r : arrivals) {
            JsonNode d = r.record().path("data");
            long at = timeOf(r);
            JsonNode framed = d.has("frame") ? byFrame.get(deviceOfAddress.get(d.path("src").asText()) + "#"
                + d.path("frame").asLong()) : null;
            if (framed != null) {
                paired.computeIfAbsent(framed, k -> new ArrayList<>()).add(0, at);
                continue;
            }
            List<JsonNode> candidates = sends.getOrDefault(key(d), List.of());
            for (int i = candidates.size() - 1; i >= 0; i--) {
                JsonNode send = candidates.get(i);
                if (send.path("time").asLong() <= at && !paired.containsKey(send)) {
                    paired.put(send, new ArrayList<>(List.of(at)));
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
}
