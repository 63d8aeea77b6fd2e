package io.jroce.tools.explain;

import io.jroce.stack.wire.AethKind;
import io.jroce.stack.wire.AethSyndrome;
import io.jroce.stack.wire.NakCode;
import io.jroce.stack.wire.Operation;
import io.jroce.stack.wire.Psn;
import io.jroce.stack.wire.TransportType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds, per requester, PSN gaps (PSNs the capture never saw), retransmissions with what
 * triggered each, and duplicates. A request whose PSN is not ahead of every PSN its sender sent
 * before is a repeat. It is a retransmission when something asked for it: a NAK PSN sequence
 * error or an RNR NAK for that PSN, or an implied NAK (a READ response or ACK that skipped an
 * expected READ response, IBTA Vol. 1 9.7); or when the requester fell silent first, as after a
 * timeout. The packets after it up to the newest PSN are the rest of the go-back-N. A repeat with
 * no trigger, byte for byte its original and close behind it, is a duplicate (a copy made on the way).
 * A response byte for byte an earlier one of the same PSN and opcode is the responder answering a
 * repeated request again (IBTA Vol. 1 9.7), one answer per repeat; with no repeat left to
 * answer and close behind its original, it is a duplicate too, which the later analysers skip
 * ({@link Report#isCopy}). PSNs compare modulo 2^24 ({@link Psn}).
 */
final class RetransmissionAnalyzer implements Analyzer {
    /** Gaps kept per requester: a bound on the work and memory a crafted capture can ask for. */
    static final int MAX_GAPS = 4096;
    /** How far behind its requester's highest PSN a gap is forgotten (a quarter of the PSN space). */
    static final int STALE_PSNS = 1 << 22;

    /**
     * How soon after the packet it copies a repeat with no trigger may come and still be a
     * duplicate: a copy made on the way trails its original closely; a requester's ACK timer is
     * rarely under 4 ms (IBTA timeout 10: 4.096 us * 2^10).
     */
    static final long DUPLICATE_WINDOW_NS = 2_000_000;
    /** The smallest path MTU: a READ of L bytes takes at most ceil(L / 256) response PSNs. */
    private static final int MIN_PMTU = 256;

    /** What asked for a retransmission, starting at PSN {@code psn}. */
    private record Trigger(String why, int psn) {
    }

    /** A READ request whose responses have not all been seen. */
    private static final class OpenRead {
        final int psn;
        int nextResponse;

        OpenRead(int psn) {
            this.psn = psn;
            this.nextResponse = psn;
        }
    }

    /** One requester's sending state. */
    private static final class Requester {
        boolean started;
        int maxPsn;
        int span = 1;
        long lastNs;
        final Map<Integer, Packet> sent = new HashMap<>();
        final List<int[]> gaps = new ArrayList<>();
        Trigger pending;
        Trigger run;
        int runNext;
        final List<OpenRead> reads = new ArrayList<>();
        Packet lastRead;
        /** Responses the responder may still send again, answering repeated requests. */
        int answersAgain;
        /** The newest response to this requester by opcode and PSN. */
        final Map<Long, Packet> responses = new HashMap<>();
    }

    private final Requester[] requesters = {new Requester(), new Requester()};

    @Override
    public void packet(Packet p, int from, Report report) {
        if (p.info().transport() == TransportType.CNP) {
            return;
        }
        if (p.isRequest()) {
            request(p, from, report);
        } else {
            response(p, from, requesters[1 - from], report);
        }
    }

    private void request(Packet p, int from, Report report) {
        Requester r = requesters[from];
        int psn = p.psn();
        if (!r.started) {
            r.started = true;
            advance(r, p);
        } else {
            int ahead = Psn.diff(psn, r.maxPsn);
            if (ahead > 0 && !resumesRead(r, p)) {
                if (ahead > r.span) {
                    int firstMissing = Psn.add(r.maxPsn, r.span);
                    int lastMissing = Psn.add(psn, -1);
                    if (r.gaps.size() >= MAX_GAPS) {
                        r.gaps.remove(0); // the oldest: a capture with this many open gaps is not a run to explain PSN by PSN
                    }
                    r.gaps.add(new int[] {firstMissing, lastMissing});
                    report.stats(from).gaps++;
                    report.markAfterGap(p, firstMissing);
                    report.finding(p, "PSN gap: " + range(firstMissing, lastMissing)
                        + " never seen before this packet (lost before the capture point)");
                }
                r.run = null;
                advance(r, p);
            } else {
                repeat(p, from, r, report);
            }
        }
        r.sent.put(psn, p);
        r.lastNs = p.timeNs();
    }

    private static void advance(Requester r, Packet p) {
        r.maxPsn = p.psn();
        r.span = responsePsns(p);
        if (p.operation() == Operation.RDMA_READ_REQUEST) {
            r.reads.add(new OpenRead(p.psn()));
            r.lastRead = p;
        }
    }

    /** How many response PSNs request {@code p} may take: a READ's at the smallest path MTU, one otherwise. */
    private static int responsePsns(Packet p) {
        if (p.operation() == Operation.RDMA_READ_REQUEST && p.ext().reth() != null) {
            return (int) Math.max(1, (p.ext().reth().dmaLength() + MIN_PMTU - 1) / MIN_PMTU);
        }
        return 1;
    }

    /**
     * A READ request for the rest of the newest READ: same R_Key, its address moved on by as many
     * bytes as its length shrank, its PSN that of the first response the requester still needs.
     */
    private static boolean resumesRead(Requester r, Packet p) {
        Packet read = r.lastRead;
        if (read == null || p.operation() != Operation.RDMA_READ_REQUEST || p.ext().reth() == null
            || Psn.diff(p.psn(), read.psn()) <= 0) {
            return false;
        }
        ExtHeaders.Reth first = read.ext().reth();
        ExtHeaders.Reth rest = p.ext().reth();
        long moved = rest.virtualAddress() - first.virtualAddress();
        return rest.rKey() == first.rKey() && moved > 0 && moved == first.dmaLength() - rest.dmaLength();
    }

    private void repeat(Packet p, int from, Requester r, Report report) {
        int psn = p.psn();
        Packet original = r.sent.get(psn);
        boolean fillsGap = fillGap(r, psn);
        report.markRepeat(p);
        r.answersAgain += responsePsns(p); // a repeated READ is answered again from its PSN on
        if (fillsGap) {
            report.markGapFill(p);
        }
        if (r.run != null && psn == r.runNext) {
            r.runNext = Psn.next(psn);
            retransmission(p, from, report, "retransmission, go-back-N after " + r.run.why(), original);
            return;
        }
        if (r.pending != null && Psn.diff(psn, r.pending.psn()) >= 0) {
            start(r, r.pending, psn);
            r.pending = null;
            retransmission(p, from, report, "retransmission triggered by " + r.run.why(), original);
            return;
        }
        long silence = p.timeNs() - r.lastNs;
        if (original != null && p.timeNs() - original.timeNs() < DUPLICATE_WINDOW_NS && !fillsGap
            && sameBytes(p, original)) {
            report.stats(from).duplicates++;
            report.finding(p, "duplicate of frame " + original.label() + ": the same PSN again "
                + Durations.format(p.timeNs() - original.timeNs()) + " later with no NAK or timeout before it "
                + "(a copy made on the way)");
            return;
        }
        if (original == null && silence < DUPLICATE_WINDOW_NS) {
            report.markGapFill(p); // its first transmission, late: its message takes it
            report.finding(p, "out of order: fills the PSN gap, " + Durations.format(silence)
                + " after the requester's previous packet");
            return;
        }
        start(r, new Trigger("a timeout (no NAK seen; the requester was silent for " + Durations.format(silence)
            + ")", psn), psn);
        retransmission(p, from, report, "retransmission after " + r.run.why(), original);
    }

    private static boolean sameBytes(Packet p, Packet original) {
        return p.roce() == null || original.roce() == null || Arrays.equals(p.roce().roce(), original.roce().roce());
    }

    private static void start(Requester r, Trigger t, int psn) {
        r.run = t;
        r.runNext = Psn.next(psn);
    }

    private static void retransmission(Packet p, int from, Report report, String text, Packet original) {
        report.stats(from).retransmissions++;
        report.finding(p, text + (original == null ? "; its first transmission was never captured"
            : "; first sent in frame " + original.label() + (original.icrcOk() ? "" : ", whose bad ICRC made its receiver drop it")));
    }

    /**
     * Whether {@code psn} lies in a gap; the gap keeps the PSNs still missing on either side of it.
     * Gaps far behind the requester's highest PSN are forgotten first: a PSN there comes round
     * again after the 24-bit wrap, and would otherwise fill a gap of long ago.
     */
    private static boolean fillGap(Requester r, int psn) {
        r.gaps.removeIf(g -> Psn.diff(r.maxPsn, g[1]) > STALE_PSNS);
        for (int[] g : r.gaps) {
            if (Psn.diff(psn, g[0]) >= 0 && Psn.diff(g[1], psn) >= 0) {
                r.gaps.remove(g);
                if (psn != g[0]) {
                    r.gaps.add(new int[] {g[0], Psn.add(psn, -1)});
                }
                if (psn != g[1]) {
                    r.gaps.add(new int[] {Psn.next(psn), g[1]});
                }
                return true;
            }
        }
        return false;
    }

    private static void response(Packet p, int from, Requester r, Report report) {
        if (copied(p, from, r, report)) {
            return;
        }
        if (p.hasAeth()) {
            int syndrome = p.ext().aeth().syndrome();
            AethKind kind = AethSyndrome.kind(syndrome);
            if (kind == AethKind.NAK && AethSyndrome.nakCode(syndrome) == NakCode.PSN_SEQUENCE_ERROR) {
                r.pending = new Trigger("the NAK PSN sequence error of frame " + p.label(), p.psn());
                return;
            }
            if (kind == AethKind.RNR_NAK) {
                r.pending = new Trigger("the RNR NAK of frame " + p.label(), p.psn());
                return;
            }
        }
        impliedNak(p, r);
    }

    /**
     * Whether response {@code p} is a copy made on the way: the same bytes as the newest response of
     * its opcode and PSN, close behind it, and no repeated request left for the responder to answer.
     */
    private static boolean copied(Packet p, int from, Requester r, Report report) {
        Packet before = r.responses.put(((long) p.info().opcode() << 24) | p.psn(), p);
        if (before == null || !sameBytes(p, before)) {
            return false;
        }
        if (r.answersAgain > 0) {
            r.answersAgain--;
            return false;
        }
        if (p.timeNs() - before.timeNs() >= DUPLICATE_WINDOW_NS) {
            return false;
        }
        report.markCopy(p);
        report.stats(from).duplicates++;
        report.finding(p, "duplicate of frame " + before.label() + ": the same response again "
            + Durations.format(p.timeNs() - before.timeNs()) + " later with no repeated request to answer "
            + "(a copy made on the way)");
        return true;
    }

    /** A response beyond what the oldest open READ still owes implies its missing responses were lost. */
    private static void impliedNak(Packet p, Requester r) {
        if (r.reads.isEmpty()) {
            return;
        }
        OpenRead read = r.reads.get(0);
        boolean readResponse = p.operation() == Operation.RDMA_READ_RESPONSE;
        if (readResponse && p.psn() == read.nextResponse) {
            read.nextResponse = Psn.next(p.psn());
            if (p.position().endsMessage()) {
                r.reads.remove(0);
            }
            return;
        }
        if (Psn.diff(p.psn(), read.nextResponse) > 0) {
            r.pending = new Trigger("an implied NAK: frame " + p.label() + " answered PSN " + p.psn()
                + " while the READ of PSN " + read.psn + " still owed PSN " + read.nextResponse, read.nextResponse);
        }
    }

    private static String range(int first, int last) {
        return first == last ? "PSN " + first : "PSNs " + first + ".." + last;
    }
}
