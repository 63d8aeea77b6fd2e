package io.jroce.tools.explain;

import io.jroce.stack.wire.AethKind;
import io.jroce.stack.wire.Operation;
import io.jroce.stack.wire.Position;
import io.jroce.stack.wire.Psn;
import io.jroce.stack.wire.TransportType;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;

/**
 * Reassembles each requester's messages from FIRST..MIDDLE..LAST (or ONLY) packets, reports
 * opcode-sequence errors (a MIDDLE or LAST without a FIRST, a FIRST before the previous LAST, an
 * operation that changes inside a message: a responder checks these, IBTA Vol. 1 9.7) and, on RC, the latency
 * of each message: from its first packet to the response that covers it (an ACK or NAK at or
 * past its last PSN, its last READ response, its atomic acknowledge). Repeats (retransmissions,
 * duplicates) are left out: a message counts once. A PSN gap (packets lost before the capture
 * point) may hold a message's FIRST, the previous message's LAST or whole messages: none of that
 * is an opcode-sequence error, and the packets resent into the gap complete those messages. A
 * MIDDLE or LAST without a FIRST and with no gap before it waits for a FIRST that a capture at the
 * receiver's side shows after it, overtaken on the way ({@link Report#isGapFill}): the responder
 * NAKs such a packet for its PSN, never checks its opcode, and takes the late FIRST in sequence,
 * even after later messages. It is a sequence error only if the capture ends first.
 */
final class MessageAnalyzer implements Analyzer {
    /** A message being reassembled or waiting for its response. */
    private static final class Message {
        /** The packet that started it: its FIRST or ONLY, or the packet after the gap its FIRST was lost in. */
        final Packet first;
        final Operation operation;
        /** Its packet first in the capture (its latency starts there): {@code first}, unless that was overtaken on the way. */
        Packet earliest;
        /** Its lowest PSN known: behind {@code first}'s once a FIRST lost before the capture point is resent. */
        int firstPsn;
        /** Begun by a MIDDLE or LAST after a PSN gap: its FIRST is still to be resent into the gap. */
        boolean headless;
        /** Its LAST lost before the capture point: it completes when the LAST is resent into the gap. */
        boolean lacksLast;
        long bytes;
        int packets;
        int middles;
        int number;
        Packet last;

        Message(Packet first) {
            this.first = first;
            this.operation = first.operation();
            this.firstPsn = first.psn();
        }

        int lastPsn() {
            return last.psn();
        }

        void add(Packet p) {
            if (earliest == null || p.ordinal() < earliest.ordinal()) {
                earliest = p;
            }
            packets++;
            bytes += p.payload();
            if (p.position() == Position.MIDDLE) {
                middles++;
            }
        }

        /** Its FIRST or LAST, whichever came later: with {@link #earliest}, the frames it spans (resent ones aside). */
        Packet latest() {
            return first.ordinal() > last.ordinal() ? first : last;
        }

        /** "SEND of frames 1..4 (4096 B)". */
        String brief() {
            String frames = packets == 1 ? "frame " + first.label() : "frames " + earliest.label() + ".." + latest().label();
            long size = operation == Operation.RDMA_READ_REQUEST ? first.ext().reth().dmaLength()
                : operation == Operation.COMPARE_SWAP || operation == Operation.FETCH_ADD ? 8 : bytes;
            return operation.name().replace('_', ' ') + " of " + frames + " (" + size + " B)";
        }

        String describe() {
            String what = switch (operation) {
                case RDMA_READ_REQUEST -> "RDMA READ of " + first.ext().reth().dmaLength() + " B";
                case COMPARE_SWAP, FETCH_ADD -> operation.name().replace('_', ' ') + " (8 B)";
                default -> operation.name().replace('_', ' ') + " of " + bytes + " B";
            };
            if (packets == 1) {
                return what + ", PSN " + first.psn() + ", frame " + first.label();
            }
            int missing = Psn.diff(last.psn(), firstPsn) + 1 - packets;
            return what + " in " + packets + " packets (FIRST, " + middles + " MIDDLE, LAST), PSNs " + firstPsn
                + ".." + last.psn() + (missing > 0 ? " (" + missing + " never captured)" : "")
                + (headless ? " (its FIRST never captured)" : "")
                + ", frames " + earliest.label() + ".." + latest().label();
        }
    }

    /** A bound on the skipped PSNs remembered: a capture that misses millions says so once per gap anyway. */
    private static final int MAX_SKIPPED = 1 << 16;
    /** How far behind the newest PSN a remembered PSN is forgotten (a quarter of the PSN space). */
    private static final int STALE_PSNS = RetransmissionAnalyzer.STALE_PSNS;

    private final Message[] open = new Message[2];
    @SuppressWarnings("unchecked")
    private final Deque<Message>[] unanswered = new Deque[] {new ArrayDeque<Message>(), new ArrayDeque<Message>()};
    private final int[] numbers = new int[2];
    /** Messages by the PSNs of theirs the capture skipped, per requester: a resent packet there belongs to them. */
    @SuppressWarnings("unchecked")
    private final Map<Integer, Message>[] skipped = new Map[] {new HashMap<Integer, Message>(), new HashMap<Integer, Message>()};
    /**
     * Per requester, by PSN, the MIDDLE and LAST packets that came with no message open, waiting
     * for a FIRST overtaken on the way (held back past later messages too); at most
     * {@link #MAX_SKIPPED}, the oldest reported first when more come.
     */
    @SuppressWarnings("unchecked")
    private final Map<Integer, Packet>[] waitingForFirst = new Map[] {new LinkedHashMap<Integer, Packet>(),
        new LinkedHashMap<Integer, Packet>()};

    @Override
    public void packet(Packet p, int from, Report report) {
        if (p.info().transport() == TransportType.CNP) {
            return;
        }
        if (p.isRequest()) {
            if (!report.isRepeat(p)) {
                request(p, from, report);
            } else if (report.isGapFill(p) && !resent(p, from, report) && p.position().startsMessage()) {
                overtaken(p, from, report);
            }
        } else {
            response(p, 1 - from, report);
        }
    }

    private void request(Packet p, int from, Report report) {
        Position position = p.position();
        Message m = open[from];
        Integer gap = report.gapBefore(p);
        if (position.startsMessage()) {
            if (m != null && gap != null) {
                // The open message's LAST (and maybe more) was lost before the capture point.
                m.lacksLast = true;
                skip(from, gap, p.psn(), m);
            } else if (m != null) {
                sequenceError(p, from, report, p.info().name() + " while the message begun in frame "
                    + m.first.label() + " still lacks its LAST");
            }
            open[from] = null;
            m = new Message(p);
        } else if (m == null && gap != null) {
            // Its FIRST was lost before the capture point: the message starts here and takes its
            // FIRST when the requester resends it into the gap.
            m = new Message(p);
            m.headless = true;
            skip(from, gap, p.psn(), m);
        } else if (m == null) {
            waitForFirst(p, from, report);
            return;
        } else if (m.operation != p.operation()) {
            sequenceError(p, from, report, p.info().name() + " inside the " + m.operation + " message begun in frame "
                + m.first.label());
            open[from] = null;
            return;
        }
        if (m.last != null) {
            skip(from, Psn.next(m.last.psn()), p.psn(), m);
        }
        m.add(p);
        m.last = p;
        if (!position.endsMessage()) {
            open[from] = m;
            return;
        }
        open[from] = null;
        complete(m, from, report);
    }

    /** The PSNs from {@code firstMissing} up to {@code psn} (exclusive) were skipped; a resent packet there may be {@code m}'s. */
    private void skip(int from, int firstMissing, int psn, Message m) {
        if (skipped[from].size() >= MAX_SKIPPED) {
            // PSNs far behind this one come round again only after the 24-bit wrap: forget them.
            skipped[from].keySet().removeIf(x -> Psn.diff(psn, x) > STALE_PSNS);
        }
        for (int x = firstMissing; x != psn && skipped[from].size() < MAX_SKIPPED; x = Psn.next(x)) {
            skipped[from].put(x, m);
        }
    }

    /**
     * A packet resent into a PSN gap, first seen now: an ONLY is a message of its own; a MIDDLE,
     * a headless message's FIRST or an unfinished message's LAST joins the message around the gap.
     * (A headless message takes the first FIRST of its operation resent into its gap: a message of
     * several packets lost whole in the same gap, before it, is not told apart.) False when no
     * message around a gap takes it: it may be a FIRST overtaken on the way.
     */
    private boolean resent(Packet p, int from, Report report) {
        Message m = skipped[from].remove(p.psn());
        Position position = p.position();
        if (position.startsMessage() && position.endsMessage()) {
            Message only = new Message(p);
            only.add(p);
            only.last = p;
            complete(only, from, report);
            return true;
        }
        if (m == null || m.operation != p.operation()) {
            return false;
        }
        if (position == Position.MIDDLE) {
            m.add(p);
        } else if (position.startsMessage() && m.headless) {
            m.add(p);
            m.firstPsn = p.psn();
            m.headless = false;
        } else if (position.endsMessage() && m.lacksLast) {
            m.add(p);
            m.last = p;
            m.lacksLast = false;
            complete(m, from, report);
        }
        return true;
    }

    /**
     * A FIRST that came after later packets, overtaken on the way: it starts its message late, and
     * takes the MIDDLE and LAST packets that came before it without one.
     */
    private void overtaken(Packet p, int from, Report report) {
        Message m = new Message(p);
        m.add(p);
        m.last = p;
        Map<Integer, Packet> rest = waitingForFirst[from];
        for (int next = Psn.next(p.psn()); !m.last.position().endsMessage(); next = Psn.next(next)) {
            Packet q = rest.get(next);
            if (q == null || q.operation() != m.operation) {
                break;
            }
            rest.remove(next);
            m.add(q);
            m.last = q;
        }
        if (m.last.position().endsMessage()) {
            complete(m, from, report, p);
        } else if (open[from] == null) {
            open[from] = m;
        }
        // else: a later message is open; this one's remaining packets, resent, are repeats
    }

    /** {@code p}, a MIDDLE or LAST with no message open, waits for a FIRST that may come late. */
    private void waitForFirst(Packet p, int from, Report report) {
        Map<Integer, Packet> waiting = waitingForFirst[from];
        Packet before = waiting.remove(p.psn()); // its PSN again after the wrap: the old one waited in vain
        if (before != null) {
            sequenceError(before, from, report, before.info().name() + " without a FIRST");
        }
        if (waiting.size() >= MAX_SKIPPED) {
            Packet oldest = waiting.values().iterator().next();
            waiting.remove(oldest.psn());
            sequenceError(oldest, from, report, oldest.info().name() + " without a FIRST");
        }
        waiting.put(p.psn(), p);
    }

    /** The packets that waited in vain for a FIRST: the capture ended. */
    private void withoutFirst(int from, Report report) {
        for (Packet p : waitingForFirst[from].values()) {
            sequenceError(p, from, report, p.info().name() + " without a FIRST");
        }
        waitingForFirst[from].clear();
    }

    private void complete(Message m, int from, Report report) {
        complete(m, from, report, m.last);
    }

    /** Counts message {@code m}, its note under {@code completing}, the packet that completed it. */
    private void complete(Message m, int from, Report report, Packet completing) {
        report.stats(from).messages++;
        m.number = ++numbers[from];
        if (m.packets > 1 || m.headless) {
            report.note(completing, () -> "message: " + m.describe());
        }
        if (report.connection().transport() == TransportType.RC) {
            unanswered[from].add(m);
        } else {
            report.message(m.earliest, "message " + side(from) + " " + m.number + ": " + m.describe()
                + " (" + report.connection().transport() + ": no acknowledgement)");
        }
    }

    private static void sequenceError(Packet p, int from, Report report, String text) {
        report.stats(from).sequenceErrors++;
        report.finding(p, "opcode sequence error: " + text);
    }

    private void response(Packet p, int from, Report report) {
        Deque<Message> waiting = unanswered[from];
        while (!waiting.isEmpty() && covers(p, waiting.peek(), report)) {
            Message m = waiting.poll();
            long latency = p.timeNs() - m.earliest.timeNs();
            report.note(p, "answers the " + m.brief() + " after " + Durations.format(latency));
            report.message(m.earliest, "message " + side(from) + " " + m.number + ": " + m.describe() + "; answered by frame "
                + p.label() + " after " + Durations.format(latency));
        }
    }

    /** Whether response {@code p} completes message {@code m} (ACKs and NAKs are cumulative, IBTA Vol. 1 9.7). */
    private static boolean covers(Packet p, Message m, Report report) {
        boolean read = m.operation == Operation.RDMA_READ_REQUEST;
        boolean atomic = m.operation == Operation.COMPARE_SWAP || m.operation == Operation.FETCH_ADD;
        if (read) {
            return report.readAnsweredBy(m.first) == p;
        }
        if (atomic) {
            return p.operation() == Operation.ATOMIC_ACKNOWLEDGE && Psn.diff(p.psn(), m.lastPsn()) >= 0;
        }
        if (p.aethKind() == AethKind.ACK || p.operation() == Operation.RDMA_READ_RESPONSE) {
            return Psn.diff(p.psn(), m.lastPsn()) >= 0;
        }
        // A NAK or RNR NAK acknowledges every PSN before the one it names.
        return p.hasAeth() && Psn.diff(p.psn(), m.lastPsn()) > 0;
    }

    @Override
    public void end(Report report) {
        for (int from = 0; from < 2; from++) {
            withoutFirst(from, report);
            if (open[from] != null) {
                report.openEnd(open[from].first, "message " + side(from) + ": begun in frame "
                    + open[from].first.label() + " and never finished in the capture (no LAST)");
            }
            for (Message m : new LinkedHashSet<>(skipped[from].values())) {
                if (m.lacksLast) {
                    report.openEnd(m.first, "message " + side(from) + ": begun in frame " + m.first.label()
                        + ", its LAST lost before the capture point and never resent in it");
                }
            }
            for (Message m : unanswered[from]) {
                report.message(m.earliest, "message " + side(from) + " " + m.number + ": " + m.describe()
                    + "; no response covering it in the capture");
            }
        }
    }

    private static String side(int from) {
        return from == 0 ? "A->B" : "B->A";
    }
}
