package io.jroce.tools.explain;

import io.jroce.stack.wire.Operation;
import io.jroce.stack.wire.Position;
import io.jroce.stack.wire.Psn;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Pairs each RDMA READ request with its responses (the first response carries the request's PSN,
 * each next one the next PSN, IBTA Vol. 1 9.7), reports responses the capture never saw (a lost
 * READ response), follows a READ resumed from a later PSN after one, takes a response that comes
 * late or again for what it is (never a skip forward around the 2^24 PSN circle), and tells the {@link Report}
 * which response completed each READ, once every response PSN has arrived.
 */
final class ReadAnalyzer implements Analyzer {
    /** A READ request, any requests resuming it, and the response PSNs it still lacks. */
    private static final class Read {
        final Packet request;
        /** The responses received, by PSN: the first of each. */
        final Map<Integer, Packet> received = new HashMap<>();
        final Set<Integer> missing = new HashSet<>();
        Packet resumedBy;
        int nextPsn;
        long bytes;

        Read(Packet request) {
            this.request = request;
            this.nextPsn = request.psn();
        }
    }

    /** READs by each PSN a response of theirs is due at (the next one, and the first one missing), per requester. */
    @SuppressWarnings("unchecked")
    private final Map<Integer, Read>[] due = new Map[] {new HashMap<Integer, Read>(), new HashMap<Integer, Read>()};
    private final Read[] current = new Read[2];
    /** The READ whose last response came last, per requester: a late repeat of its responses belongs to it. */
    private final Read[] ended = new Read[2];

    @Override
    public void packet(Packet p, int from, Report report) {
        if (p.operation() == Operation.RDMA_READ_REQUEST) {
            request(p, due[from], report);
        } else if (p.operation() == Operation.RDMA_READ_RESPONSE && !report.isCopy(p)) {
            response(p, 1 - from, report);
        }
    }

    private static void request(Packet p, Map<Integer, Read> reads, Report report) {
        Read earlier = reads.get(p.psn());
        if (earlier == null || earlier.request == p) {
            reads.put(p.psn(), new Read(p));
            return;
        }
        if (earlier.missing.contains(p.psn())) {
            earlier.resumedBy = p;
            report.note(p, "resumes the READ of frame " + earlier.request.label() + " at PSN " + p.psn()
                + ", the first response it lacks");
        } else {
            report.note(p, "asks again for the READ of frame " + earlier.request.label());
        }
        earlier.nextPsn = p.psn();
    }

    private void response(Packet p, int requester, Report report) {
        Map<Integer, Read> reads = due[requester];
        Read read = reads.remove(p.psn());
        if (read == null && repeated(p, requester, report)) {
            return;
        }
        if (read == null) {
            read = current[requester];
            if (read == null || p.position().startsMessage()) {
                report.finding(p, "READ response to no READ request in the capture");
                return;
            }
            int firstMissing = read.nextPsn;
            if (Psn.diff(p.psn(), firstMissing) < 0) {
                late(p, read, report);
                return;
            }
            for (int psn = firstMissing; psn != p.psn(); psn = Psn.next(psn)) {
                read.missing.add(psn);
            }
            reads.remove(firstMissing);
            reads.put(firstMissing, read);
            report.finding(p, "lost READ response: " + range(firstMissing, Psn.add(p.psn(), -1)) + " of the READ of frame "
                + read.request.label() + " never seen");
        }
        if (p.position().startsMessage()) {
            report.note(p, read.resumedBy != null && p.psn() == read.resumedBy.psn()
                ? "first response to the resumed READ of frame " + read.resumedBy.label()
                : "first response to the READ of frame " + read.request.label());
        }
        if (read.received.putIfAbsent(p.psn(), p) == null) {
            read.bytes += p.payload();
        }
        read.missing.remove(p.psn());
        read.nextPsn = Psn.next(p.psn());
        if (p.position() == Position.LAST || p.position() == Position.ONLY) {
            current[requester] = null;
            ended[requester] = read;
            ended(p, read, report);
        } else {
            current[requester] = read;
            reads.put(read.nextPsn, read);
        }
    }

    /**
     * Whether {@code p} repeats a response the READ being answered (or the one answered last) has
     * had already: a responder replaying it for a repeated request the capture missed. It is not a
     * skip forward to a later PSN (which would make every PSN around the 2^24 circle a lost one).
     */
    private boolean repeated(Packet p, int requester, Report report) {
        for (Read read : new Read[] {current[requester], ended[requester]}) {
            Packet before = read == null ? null : read.received.get(p.psn());
            if (before != null) {
                report.note(p, "PSN " + p.psn() + " of the READ of frame " + read.request.label()
                    + " again: its responder sent it before, in frame " + before.label());
                return true;
            }
        }
        return false;
    }

    /** A response older than the one due, neither had nor the first one missing: overtaken on the way, or stray. */
    private static void late(Packet p, Read read, Report report) {
        if (!read.missing.remove(p.psn())) {
            report.finding(p, "READ response PSN " + p.psn() + " before the READ of frame " + read.request.label()
                + " or after its responses ended");
            return;
        }
        read.received.put(p.psn(), p);
        read.bytes += p.payload();
        report.note(p, "late READ response: PSN " + p.psn() + " of the READ of frame " + read.request.label()
            + ", overtaken on the way by later ones");
    }

    private static void ended(Packet p, Read read, Report report) {
        if (!read.missing.isEmpty()) {
            int first = read.missing.stream().min((x, y) -> Psn.compare(x, y)).orElseThrow();
            report.note(p, "last response of the READ of frame " + read.request.label() + ", still without "
                + read.missing.size() + " response(s) from PSN " + first);
            return;
        }
        report.readAnswered(read.request, p);
        report.finding(p, "READ of frame " + read.request.label() + " answered: " + read.bytes + " B in "
            + read.received.size() + " response packets, " + Durations.format(p.timeNs() - read.request.timeNs())
            + " after the request");
    }

    private static String range(int first, int last) {
        return first == last ? "PSN " + first : "PSNs " + first + ".." + last;
    }

    @Override
    public void end(Report report) {
        for (Map<Integer, Read> reads : due) {
            reads.values().stream().distinct().filter(r -> r.received.isEmpty()).forEach(r -> report.openEnd(r.request,
                "frame " + r.request.label() + ": READ request with no response in the capture"));
        }
    }
}
