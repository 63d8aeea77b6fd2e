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
 * READ response), follows a READ resumed from a later PSN after one, and tells the {@link Report}
 * which response completed each READ, once every response PSN has arrived.
 */
final class ReadAnalyzer implements Analyzer {
    /** A READ request, any requests resuming it, and the response PSNs it still lacks. */
    private static final class Read {
        final Packet request;
        final Set<Integer> received = new HashSet<>();
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
        if (read == null) {
            read = current[requester];
            if (read == null || p.position().startsMessage()) {
                report.finding(p, "READ response to no READ request in the capture");
                return;
            }
            int firstMissing = read.nextPsn;
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
        if (read.received.add(p.psn())) {
            read.bytes += p.payload();
        }
        read.missing.remove(p.psn());
        read.nextPsn = Psn.next(p.psn());
        if (p.position() == Position.LAST || p.position() == Position.ONLY) {
            current[requester] = null;
            ended(p, read, report);
        } else {
            current[requester] = read;
            reads.put(read.nextPsn, read);
        }
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
