package io.jroce.tools.explain;

import io.jroce.stack.pcap.GsoSegments;
import io.jroce.stack.pcap.IcrcCheck;
import io.jroce.stack.pcap.PcapReader;
import io.jroce.stack.pcap.RoceFrame;
import io.jroce.stack.wire.ParseResult;
import io.jroce.stack.wire.RocePacket;
import io.jroce.stack.wire.RoceV2;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Reads a pcap or pcapng file into {@link Capture}: every frame that is a UDP datagram to a RoCEv2
 * port becomes one {@link Packet} (or several, for a GSO super-datagram), decoded with the stack's
 * header flyweights; anything else is counted by reason and skipped.
 */
final class CaptureReader {
    private final Set<Integer> ports;
    private final IcrcCheck icrc = new IcrcCheck();
    private final RocePacket packet = new RocePacket();
    private final PacketDecoder decoder = new PacketDecoder();
    private final Map<String, Integer> skipped = new LinkedHashMap<>();

    /** @param ports the UDP destination ports that carry RoCEv2 (4791, and any the user named) */
    CaptureReader(Set<Integer> ports) {
        this.ports = Set.copyOf(ports);
    }

    Capture read(Path file) throws CaptureException {
        List<PcapReader.Record> records;
        try (InputStream in = Files.newInputStream(file)) {
            records = PcapReader.read(in);
        } catch (NoSuchFileException e) {
            throw new CaptureException(file + ": no such file");
        } catch (IOException e) {
            throw new CaptureException(file + ": " + (e.getMessage() != null ? e.getMessage() : e.toString()));
        }
        return read(file.toString(), records);
    }

    /** A capture held in memory ({@code jroce lesson} makes its own), named {@code name}. */
    Capture read(String name, byte[] pcap) throws CaptureException {
        try {
            return read(name, PcapReader.read(new ByteArrayInputStream(pcap)));
        } catch (IOException e) {
            throw new CaptureException(name + ": " + e.getMessage());
        }
    }

    private Capture read(String name, List<PcapReader.Record> records) {
        List<Decoded> decoded = new ArrayList<>();
        for (PcapReader.Record r : records) {
            decode(r, decoded);
        }
        Map<String, Set<Integer>> listening = listeningPorts(decoded);
        List<Packet> packets = new ArrayList<>(decoded.size());
        for (Decoded d : decoded) {
            packets.add(d.toPacket(packets.size(), listening));
        }
        long start = records.isEmpty() ? 0 : records.get(0).timestampNs();
        return new Capture(name, records.size(), packets, skipped, start);
    }

    private void decode(PcapReader.Record r, List<Decoded> out) {
        RoceFrame whole;
        try {
            whole = RoceFrame.parse(r);
        } catch (IOException e) {
            skip(reason(e.getMessage()));
            return;
        }
        if (!ports.contains(whole.dstPort())) {
            skip("UDP to another port than RoCEv2's");
            return;
        }
        List<RoceFrame> segments;
        try {
            segments = GsoSegments.split(whole, icrc);
        } catch (RuntimeException e) {
            segments = List.of(whole); // too long for an ICRC: decoded as it is, its ICRC reported bad
        }
        for (int i = 0; i < segments.size(); i++) {
            RoceFrame f = segments.get(i);
            ParseResult result = packet.wrap(new UnsafeBuffer(f.roce()), 0, f.roce().length);
            if (result != ParseResult.OK) {
                skip("RoCEv2 port, but " + result.name().toLowerCase().replace('_', ' '));
                continue;
            }
            boolean ok;
            try {
                ok = icrc.verifies(f);
            } catch (RuntimeException e) {
                ok = false;
            }
            out.add(new Decoded(r, f, segments.size() == 1 ? 0 : i + 1, decoder.decode(packet), ok));
        }
    }

    private void skip(String reason) {
        skipped.merge(reason, 1, Integer::sum);
    }

    /** RoceFrame's reasons, without the frame number, grouped into a few kinds. */
    private static String reason(String message) {
        String m = message == null ? "" : message;
        if (m.contains("truncated")) {
            return "truncated (cut by the capture's snap length)";
        }
        if (m.contains("not UDP")) {
            return "not UDP";
        }
        if (m.contains("ethertype") || m.contains("not an IPv4")) {
            return "not IP";
        }
        if (m.contains("link type")) {
            return "a link type explain does not read";
        }
        return "not a RoCEv2 datagram";
    }

    /** The RoCE ports each address receives on: what a packet's destination port says. */
    private static Map<String, Set<Integer>> listeningPorts(List<Decoded> decoded) {
        Map<String, Set<Integer>> ports = new HashMap<>();
        for (Decoded d : decoded) {
            ports.computeIfAbsent(key(d.frame.dst16()), k -> new HashSet<>()).add(d.frame.dstPort());
        }
        return ports;
    }

    private static String key(byte[] a16) {
        return HexFormat.of().formatHex(a16);
    }

    /** A decoded frame waiting for its sender's port to be known. */
    private record Decoded(PcapReader.Record record, RoceFrame frame, int segment, PacketDecoder.Fields fields,
                           boolean icrcOk) {
        Packet toPacket(int ordinal, Map<String, Set<Integer>> listening) {
            Endpoint src = new Endpoint(frame.src16(), senderPort(listening));
            Endpoint dst = new Endpoint(frame.dst16(), frame.dstPort());
            return new Packet(ordinal, record.index(), segment, record.timestampNs(), src, dst, frame.srcPort(),
                fields.info(), fields.bth(), fields.ext(), fields.payload(), icrcOk, record, frame);
        }

        /**
         * The port the sender receives RoCE on: its source port when it receives on it (jroce sends
         * from its bound port), else its one RoCE port (rxe sends from a port per QP to 4791).
         */
        private int senderPort(Map<String, Set<Integer>> listening) {
            Set<Integer> own = listening.getOrDefault(key(frame.src16()), Set.of());
            if (own.contains(frame.srcPort())) {
                return frame.srcPort();
            }
            if (own.size() == 1) {
                return own.iterator().next();
            }
            return RoceV2.UDP_PORT;
        }
    }
}
