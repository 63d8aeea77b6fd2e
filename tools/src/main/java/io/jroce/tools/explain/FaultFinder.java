package io.jroce.tools.explain;

import com.fasterxml.jackson.databind.JsonNode;
import io.jroce.rnic.core.DeviceLimits;
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
 * packet it never received was lost, one it received and dropped (its {@code roce:packet_dropped}
 * names the arrival) never reached its RNIC, a delayed one arrived that much later, overtaken by
 * the packets that arrived before it.
 */
final class FaultFinder {
    /** A sent record's arrivals at its receiver, by identity: a retransmission's record equals its original's. */
    private final Map<JsonNode, List<Arrival>> arrivals;
    /** Why a receiver dropped an arrival, by device and arrival number. */
    private final Map<String, String> drops = new HashMap<>();
    /** The markers of each sent packet, by device and frame. */
    private final Map<String, List<JsonNode>> markers = new HashMap<>();
    private final Map<String, String> deviceOfAddress;

    FaultFinder(List<EventLogReader.Sent> sent, List<EventLogReader.Sent> received, List<EventLogReader.Sent> others,
                Map<String, String> deviceOfAddress) {
        this.deviceOfAddress = deviceOfAddress;
        for (EventLogReader.Sent s : others) {
            JsonNode d = s.record().path("data");
            String name = s.record().path("name").asText();
            if ("roce:fault_injected".equals(name) && d.has("frame")) {
                markers.computeIfAbsent(s.device() + "#" + d.path("frame").asLong(), k -> new ArrayList<>()).add(d);
            } else if ("roce:packet_dropped".equals(name) && d.has("arrival")) {
                drops.put(s.device() + "#" + d.path("arrival").asLong(), d.path("reason").asText());
            }
        }
        this.arrivals = pairArrivals(sent, received, deviceOfAddress);
    }

    /**
     * One arrival of a sent packet at its receiver.
     *
     * @param atNs when it arrived
     * @param number the receiver's arrival number, 0 in a log without them
     * @param dropped why the receiver dropped it on arrival (its drop counter), or null
     */
    record Arrival(long atNs, long number, String dropped) {
    }

    /** Why {@code device} dropped the arrival of {@code record} (a bad ICRC, or a drop naming it), or null. */
    private String dropped(String device, JsonNode record) {
        JsonNode d = record.path("data");
        if ("bad".equals(d.path("icrc").asText())) {
            return "drop_bad_icrc";
        }
        if (d.path("dst_qpn").asInt() == DeviceLimits.MULTICAST_QPN) {
            return null; // one member QP's drop: the others may have taken the datagram
        }
        return d.has("arrival") ? drops.get(device + "#" + d.path("arrival").asLong()) : null;
    }

    /**
     * The faults of {@code packets} (the ladder's, read from {@code sources} in the same order), by
     * frame; a packet the network left alone has none.
     */
    Map<Integer, NetworkFault> faults(List<EventLogReader.Sent> sources, List<Packet> packets) {
        Map<Integer, NetworkFault> out = new HashMap<>();
        for (int i = 0; i < packets.size(); i++) {
            EventLogReader.Sent s = sources.get(i);
            JsonNode d = s.record().path("data");
            if (!"roce:packet_sent".equals(s.record().path("name").asText())) {
                // an arrival from a sender without a log: it is there, unless its receiver dropped it
                // (one with a bad ICRC stays: the analysis finds that as in a capture)
                String reason = dropped(s.device(), s.record());
                if (reason != null && !"bad".equals(d.path("icrc").asText())) {
                    out.put(packets.get(i).frame(), new NetworkFault(NetworkFault.Kind.LOST,
                        List.of(droppedNote(s.device(), reason, d.path("arrival").asLong())), NetworkFault.UNKNOWN));
                }
                continue;
            }
            String receiver = deviceOfAddress.get(d.path("dst").asText());
            List<Arrival> arrived = arrivals.getOrDefault(s.record(), List.of());
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
                        : "; " + receiver + " received it " + Durations.format(arrived.get(0).atNs() - timeOf(s))
                        + " after it was sent" + overtaken(i, sources, packets)));
                    case "DUPLICATE" -> add(kinds, notes, NetworkFault.Kind.DUPLICATED, "DUPLICATED on the way: "
                        + s.device() + " sent it once, the network delivered a copy too" + rule
                        + (arrived.size() < 2 ? "" : "; " + receiver + " received it " + times(arrived.size())));
                    default -> {
                        // an action this version does not know: the packet is drawn as sent
                    }
                }
            }
            boolean taken = arrived.stream().anyMatch(a -> a.dropped() == null);
            for (Arrival a : arrived) {
                if (a.dropped() != null) {
                    notes.add(droppedNote(receiver, a.dropped(), a.number()));
                }
            }
            if (receiver != null && !taken && !kinds.contains(NetworkFault.Kind.LOST)) {
                kinds.add(NetworkFault.Kind.LOST);
                if (arrived.isEmpty()) {
                    notes.add("LOST on the way: " + s.device() + " sent it, " + receiver + "'s log never received it");
                }
            }
            if (!kinds.isEmpty()) {
                long arrivedNs = kinds.contains(NetworkFault.Kind.DELAYED) && !arrived.isEmpty() ? arrived.get(0).atNs()
                    : NetworkFault.UNKNOWN;
                out.put(packets.get(i).frame(), new NetworkFault(Collections.min(kinds), notes, arrivedNs));
            }
        }
        return out;
    }

    /** The note of an arrival its receiver dropped, with the drop counter that says why. */
    private static String droppedNote(String receiver, String reason, long number) {
        return "DROPPED on arrival: " + receiver + " received it and dropped it (" + reason
            + (number > 0 ? ", its arrival " + number : "") + ")";
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
        long arrived = arrivals.get(sources.get(i).record()).get(0).atNs();
        List<String> frames = new ArrayList<>();
        for (int j = i + 1; j < packets.size(); j++) {
            JsonNode e = sources.get(j).record().path("data");
            List<Arrival> at = arrivals.get(sources.get(j).record());
            if (at != null && !at.isEmpty() && at.get(0).atNs() < arrived && e.path("src").equals(d.path("src"))
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
     * arrival is the retransmission's. One left with no such send (on UDP, where no frame travels)
     * is a copy of the latest send before it that is paired already: the network delivered it
     * twice. Needs one clock for both logs (the fabric's virtual clock, or one JVM's).
     */
    private Map<JsonNode, List<Arrival>> pairArrivals(List<EventLogReader.Sent> sent, List<EventLogReader.Sent> received,
                                                      Map<String, String> deviceOfAddress) {
        Map<String, List<JsonNode>> sends = new HashMap<>();
        Map<String, JsonNode> byFrame = new HashMap<>();
        for (EventLogReader.Sent s : sent) {
            sends.computeIfAbsent(key(s.record().path("data")), k -> new ArrayList<>()).add(s.record());
            byFrame.put(s.device() + "#" + s.record().path("data").path("frame").asLong(), s.record());
        }
        Map<JsonNode, List<Arrival>> paired = new IdentityHashMap<>();
        List<EventLogReader.Sent> arrivals = new ArrayList<>(received);
        arrivals.sort(Comparator.comparingLong((EventLogReader.Sent r) -> timeOf(r)).reversed());
        for (EventLogReader.Sent r : arrivals) {
            JsonNode d = r.record().path("data");
            Arrival arrival = new Arrival(timeOf(r), d.path("arrival").asLong(), dropped(r.device(), r.record()));
            JsonNode framed = d.has("frame") ? byFrame.get(deviceOfAddress.get(d.path("src").asText()) + "#"
                + d.path("frame").asLong()) : null;
            if (framed != null) {
                paired.computeIfAbsent(framed, k -> new ArrayList<>()).add(0, arrival);
                continue;
            }
            JsonNode copied = null;
            boolean found = false;
            List<JsonNode> candidates = sends.getOrDefault(key(d), List.of());
            for (int i = candidates.size() - 1; i >= 0 && !found; i--) {
                JsonNode send = candidates.get(i);
                if (send.path("time").asLong() > arrival.atNs()) {
                    continue;
                }
                if (!paired.containsKey(send)) {
                    paired.put(send, new ArrayList<>(List.of(arrival)));
                    found = true;
                } else if (copied == null) {
                    copied = send;
                }
            }
            if (!found && copied != null) {
                paired.get(copied).add(0, arrival);
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
