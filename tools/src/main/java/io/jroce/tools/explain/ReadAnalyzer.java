package io.jroce.tools.explain;

import io.jroce.stack.wire.Operation;
import io.jroce.stack.wire.Position;
import io.jroce.stack.wire.Psn;
import java.util.HashMap;
import java.util.Map;

/**
 * Pairs each RDMA READ request with its responses (the first response carries the request's PSN,
 * each next one the next PSN, IBTA Vol. 1 9.7), reports responses the capture never saw
 * (a lost READ response), and READ requests that resume a READ from a later PSN.
 */
final class ReadAnalyzer implements Analyzer {
    /** A READ request and how far its responses got. */
    private static final class Read {
        final Packet request;
        int nextPsn;
        long bytes;
        int packets;

        Read(Packet request) {
            this.request = request;
            this.nextPsn = request.psn();
        }
    }

    /** READs by the PSN their next response should carry, per requester. */
    @SuppressWarnings("unchecked")
    private final Map<Integer, Read>[] byNextPsn = new Map[] {new HashMap<Integer, Read>(), new HashMap<Integer, Read>()};
    private final Read[] current = new Read[2];

    @Override
    public void packet(Packet p, int from, Report report) {
        if (p.operation() == Operation.RDMA_READ_REQUEST) {
            request(p, byNextPsn[from], report);
        } else if (p.operation() == Operation.RDMA_READ_RESPONSE) {
            response(p, 1 - from, report);
        }
    }

    private void request(Packet p, Map<Integer, Read> reads, Report report) {
        Read earlier = reads.remove(p.psn());
        if (earlier != null && earlier.packets > 0) {
            report.note(p, "resumes the READ of frame " + earlier.request.label() + " at PSN " + p.psn() + " after "
                + earlier.packets + " response packets");
        } else if (earlier != null) {
            report.note(p, "asks again for the READ of frame " + earlier.request.label());
        }
        Read read = new Read(earlier != null ? earlier.request : p);
        if (earlier != null) {
            read.bytes = earlier.bytes;
            read.packets = earlier.packets;
        }
        read.nextPsn = p.psn();
        reads.put(p.psn(), read);
    }

    private void response(Packet p, int requester, Report report) {
        Map<Integer, Read> reads = byNextPsn[requester];
        Read read = reads.remove(p.psn());
        if (read == null && p.position().startsMessage()) {
            report.finding(p, "READ response to no READ request in the capture");
            return;
        }
        if (read == null) {
            read = current[requester];
            if (read == null) {
                report.finding(p, "READ response to no READ request in the capture");
                return;
            }
            report.finding(p, "lost READ response: " + missing(read.nextPsn, p.psn())
                + " of the READ of frame " + read.request.label() + " never seen");
            reads.remove(read.nextPsn);
        }
        if (read.packets == 0) {
            report.note(p, "first response to the READ of frame " + read.request.label());
        }
        read.packets++;
        read.bytes += p.payload();
        read.nextPsn = Psn.next(p.psn());
        if (p.position() == Position.LAST || p.position() == Position.ONLY) {
            current[requester] = null;
            report.finding(p, "READ of frame " + read.request.label() + " answered: " + read.bytes + " B in "
                + read.packets + " response packets, " + Durations.format(p.timeNs() - read.request.timeNs())
                + " after the request");
        } else {
            current[requester] = read;
            reads.put(read.nextPsn, read);
        }
    }

    private static String missing(int first, int next) {
        int last = Psn.add(next, -1);
        return first == last ? "PSN " + first : "PSNs " + first + ".." + last;
    }

    @Override
    public void end(Report report) {
        for (Map<Integer, Read> reads : byNextPsn) {
            reads.values().stream().filter(r -> r.packets == 0).forEach(r -> report.openEnd(r.request,
                "frame " + r.request.label() + ": READ request with no response in the capture"));
        }
    }
}
