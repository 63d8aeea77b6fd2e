package io.jroce.tools.explain;

import io.jroce.stack.wire.TransportType;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Groups packets into {@link Connection}s. A BTH names only the destination QP, so the packets to
 * one QP from one address form a flow, and the two flows of a connection are paired: a UD packet
 * names its source QP in the DETH; for RC the flow whose responses carry the PSNs of the other's
 * requests is its partner (the pairing that matches most PSNs wins); a flow with one possible
 * partner only (UC) takes it. A flow left alone is a connection with one known QP.
 */
final class ConnectionFinder {
    /** The packets to one QP from one sender. */
    private static final class Flow {
        final Endpoint src;
        final Endpoint dst;
        final int destQp;
        final int sourceQp;
        final List<Packet> packets = new ArrayList<>();
        final Set<Integer> requestPsns = new HashSet<>();
        final Set<Integer> responsePsns = new HashSet<>();
        TransportType transport;
        Flow partner;

        Flow(Endpoint src, Endpoint dst, int destQp, int sourceQp) {
            this.src = src;
            this.dst = dst;
            this.destQp = destQp;
            this.sourceQp = sourceQp;
        }

        int first() {
            return packets.get(0).ordinal();
        }

        boolean reverseOf(Flow f) {
            return src.equals(f.dst) && dst.equals(f.src) && (sourceQp < 0 || sourceQp == f.destQp)
                && (f.sourceQp < 0 || f.sourceQp == destQp);
        }
    }

    private record Candidate(Flow x, Flow y, int score) {
    }

    List<Connection> find(List<Packet> packets) {
        Map<String, Flow> flows = new LinkedHashMap<>();
        for (Packet p : packets) {
            int sourceQp = p.ext().deth() != null ? p.ext().deth().sourceQp() : -1;
            String key = p.src() + "|" + p.dst() + "|" + p.bth().destQp() + "|" + sourceQp;
            Flow f = flows.computeIfAbsent(key, k -> new Flow(p.src(), p.dst(), p.bth().destQp(), sourceQp));
            f.packets.add(p);
            if (f.transport == null && p.info().transport() != TransportType.CNP) {
                f.transport = p.info().transport();
            }
            (p.isRequest() ? f.requestPsns : f.responsePsns).add(p.psn());
        }
        pair(new ArrayList<>(flows.values()));
        List<Connection> connections = new ArrayList<>();
        Set<Flow> done = new HashSet<>();
        List<Flow> ordered = new ArrayList<>(flows.values());
        ordered.sort(Comparator.comparingInt(Flow::first));
        for (Flow f : ordered) {
            if (done.add(f)) {
                if (f.partner != null) {
                    done.add(f.partner);
                }
                connections.add(connection(connections.size() + 1, f, f.partner));
            }
        }
        return connections;
    }

    private static void pair(List<Flow> flows) {
        List<Candidate> candidates = new ArrayList<>();
        Map<Flow, Integer> options = new HashMap<>();
        for (int i = 0; i < flows.size(); i++) {
            for (int j = i + 1; j < flows.size(); j++) {
                Flow x = flows.get(i);
                Flow y = flows.get(j);
                if (x.reverseOf(y) && y.reverseOf(x)) {
                    candidates.add(new Candidate(x, y, shared(x.requestPsns, y.responsePsns)
                        + shared(y.requestPsns, x.responsePsns) + (x.sourceQp >= 0 ? 1 << 30 : 0)));
                    options.merge(x, 1, Integer::sum);
                    options.merge(y, 1, Integer::sum);
                }
            }
        }
        candidates.sort(Comparator.comparingInt(Candidate::score).reversed()
            .thenComparingInt(c -> Math.min(c.x.first(), c.y.first())));
        for (Candidate c : candidates) {
            boolean unique = options.get(c.x) == 1 && options.get(c.y) == 1;
            if (c.x.partner == null && c.y.partner == null && (c.score > 0 || unique)) {
                c.x.partner = c.y;
                c.y.partner = c.x;
            }
        }
    }

    private static int shared(Set<Integer> a, Set<Integer> b) {
        Set<Integer> small = a.size() < b.size() ? a : b;
        Set<Integer> large = small == a ? b : a;
        int n = 0;
        for (Integer psn : small) {
            if (large.contains(psn)) {
                n++;
            }
        }
        return n;
    }

    private static Connection connection(int number, Flow first, Flow second) {
        int sourceQp = second != null ? second.destQp : first.sourceQp >= 0 ? first.sourceQp : Side.UNKNOWN_QPN;
        Side a = new Side(first.src, sourceQp);
        Side b = new Side(first.dst, first.destQp);
        List<Packet> all = new ArrayList<>(first.packets);
        BitSet fromB = new BitSet();
        TransportType transport = first.transport;
        if (second != null) {
            all.addAll(second.packets);
            second.packets.forEach(p -> fromB.set(p.ordinal()));
            all.sort(Comparator.comparingInt(Packet::ordinal));
            if (transport == null) {
                transport = second.transport;
            }
        }
        return new Connection(number, transport == null ? TransportType.CNP : transport, a, b, all, fromB);
    }
}
