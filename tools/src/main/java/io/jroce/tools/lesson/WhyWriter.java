package io.jroce.tools.lesson;

import io.jroce.rnic.events.RetransmitCause;
import io.jroce.stack.wire.AethKind;
import io.jroce.stack.wire.AethSyndrome;
import io.jroce.stack.wire.NakCode;
import io.jroce.stack.wire.Operation;
import io.jroce.stack.wire.Position;
import io.jroce.stack.wire.Psn;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Writes the line of why under each packet of a lesson: what made the sender send it, from the
 * packets before it (the PSNs each end expects), the QPs' protocol events (a retransmission and its
 * cause, an RNR wait) and the fabric's fate of it (lost). Each names the IBTA Vol. 1 section or
 * compliance statement that asks for the behaviour, as jroce's engines cite them.
 */
final class WhyWriter {
    /** One requester's PSNs as the packets so far show them; index 0 is A's, 1 is B's. */
    private static final class Requester {
        boolean started;
        int maxPsn;
        /** The PSN the responder expects next (its ePSN), as the packets that reached it say. */
        int expected;
        /** The PSNs of SENDs and WRITEs that asked for an ACK and have had none yet, each once. */
        final List<Integer> askedForAck = new ArrayList<>();
        /** The READ in progress: its first PSN, bytes, and the response PSN the requester needs next. */
        int readPsn = -1;
        /** The PSN of the READ the one in progress resumes, or -1. */
        int resumes = -1;
        long readLength;
        int nextResponse;
        boolean responseLost;
        /** The last PSN the responder ACKed, or -1. */
        int lastAcked = -1;
        final Set<Integer> atomicsAnswered = new HashSet<>();
    }

    private final Setup setup;
    private final List<WireFrame> frames;
    private final List<QpEvent> events;
    private final Requester[] requesters = {new Requester(), new Requester()};

    WhyWriter(Setup setup, List<WireFrame> frames, List<QpEvent> events) {
        this.setup = setup;
        this.frames = frames;
        this.events = events;
        requesters[0].expected = setup.psnA();
        requesters[1].expected = setup.psnB();
    }

    /** The lines under each frame, in frame order. */
    List<List<String>> write() {
        List<List<String>> out = new ArrayList<>();
        for (WireFrame f : frames) {
            FrameFields h = FrameFields.of(f);
            List<String> lines = new ArrayList<>();
            lines.add("why: " + (h.mad() != null ? CmWhy.of(h.mad(), f.fromA())
                : h.info().isRequest() ? request(f, h) : response(f, h)));
            if (f.lost() != null) {
                lines.add("LOST on the way (the lesson's fault rule: " + f.lost() + "): " + (f.fromA() ? "B" : "A")
                    + " never sees it");
            }
            out.add(lines);
        }
        return out;
    }

    private String request(WireFrame f, FrameFields h) {
        Requester r = requesters[f.fromA() ? 0 : 1];
        int psn = h.psn();
        Operation op = h.info().operation();
        int span = op == Operation.RDMA_READ_REQUEST ? responsePackets(h.dmaLength()) : 1;
        String why;
        if (r.started && Psn.diff(psn, r.maxPsn) <= 0) {
            why = resent(f, h, r);
        } else {
            why = first(f, h);
            r.started = true;
            r.maxPsn = Psn.add(psn, span - 1);
        }
        if (op == Operation.RDMA_READ_REQUEST) {
            r.resumes = r.readPsn >= 0 && Psn.diff(psn, r.readPsn) > 0 && Psn.diff(psn, r.maxPsn) <= 0
                ? (r.resumes >= 0 ? r.resumes : r.readPsn) : -1;
            r.readLength = h.dmaLength();
            r.readPsn = psn;
            r.nextResponse = psn;
            r.responseLost = false;
        }
        if (f.lost() != null) {
            return why;
        }
        int ahead = Psn.diff(psn, r.expected);
        if (ahead > 0) {
            return why + "; B still expects PSN " + r.expected + ", so it drops this one unexecuted (9.7.5.1.2)";
        }
        if (ahead < 0) {
            return why + "; B has had PSN " + psn + " already: " + switch (op) {
                case RDMA_READ_REQUEST -> "a READ is simply executed again from the PSN it names";
                case FETCH_ADD, COMPARE_SWAP -> "an atomic is answered from the replay record, never executed twice";
                default -> "a repeat is not executed again, only acknowledged if it asks";
            } + " (9.7.5.1.3)";
        }
        r.expected = Psn.add(psn, span);
        boolean answeredByAck = op == Operation.SEND || op == Operation.RDMA_WRITE;
        if (h.ackReq() && answeredByAck && !r.askedForAck.contains(psn)) {
            r.askedForAck.add(psn);
        }
        return why;
    }

    /** Why a request goes out the first time. */
    private String first(WireFrame f, FrameFields h) {
        int mtu = setup.mtu().bytes();
        String ask = h.ackReq() ? "; AckReq: the last packet of a message asks B to acknowledge (9.7.5.1.1)" : "";
        return switch (h.info().operation()) {
            case RDMA_READ_REQUEST -> "an RDMA READ of " + h.dmaLength() + " B is one request packet; B answers with "
                + plural(responsePackets(h.dmaLength()), "response packet") + " of at most the path MTU (" + mtu
                + " B), each with a PSN of its own, so A's next request PSN moves past them all";
            case FETCH_ADD -> "a FETCH_ADD is one packet: B adds " + h.add() + " to the 8 bytes at the address and "
                + "answers with an ATOMIC ACKNOWLEDGE carrying what they held before";
            case COMPARE_SWAP -> "a COMPARE_SWAP is one packet, answered with an ATOMIC ACKNOWLEDGE";
            default -> segment(f, h, mtu) + ask;
        };
    }

    /** A SEND or WRITE packet's place in its message. */
    private String segment(WireFrame f, FrameFields h, int mtu) {
        String what = h.info().operation() == Operation.SEND ? "SEND" : "RDMA WRITE";
        Position pos = h.info().position();
        String wrap = h.psn() == 0 ? "; PSN 0 follows 16777215: PSNs are 24 bits and wrap around, and both ends "
            + "compare them modulo 2^24" : "";
        return switch (pos) {
            case ONLY -> "the whole " + what + " of " + h.payload() + " B fits in one path MTU (" + mtu
                + " B): one packet, ONLY (9.7.4.1.2)" + wrap;
            case FIRST -> {
                int[] message = message(f);
                yield (what.startsWith("R") ? "an " : "a ") + what + " of " + message[1]
                    + " B is more than one path MTU (" + mtu + " B): it goes in " + message[0]
                    + " packets with consecutive PSNs; FIRST carries the first " + h.payload() + " B (9.7.4.1.2)"
                    + wrap;
            }
            case MIDDLE -> "MIDDLE: a full path MTU of " + h.payload() + " B; no AckReq, an ACK is not needed "
                + "in the middle of a message" + wrap;
            case LAST -> "LAST: the remaining " + h.payload() + " B" + wrap;
        };
    }

    /** Packets and bytes of the message whose FIRST is {@code first}, from the frames that follow. */
    private int[] message(WireFrame first) {
        int packets = 0;
        int bytes = 0;
        int psn = -1;
        for (int i = first.number() - 1; i < frames.size(); i++) {
            WireFrame f = frames.get(i);
            if (f.fromA() != first.fromA()) {
                continue;
            }
            FrameFields h = FrameFields.of(f);
            if (!h.info().isRequest() || (psn >= 0 && h.psn() != Psn.next(psn))) {
                continue;
            }
            psn = h.psn();
            packets++;
            bytes += h.payload();
            if (h.info().position().endsMessage()) {
                break;
            }
        }
        return new int[] {packets, bytes};
    }

    /** Why a request goes out again. */
    private String resent(WireFrame f, FrameFields h, Requester r) {
        QpEvent.Retransmission cause = lastRetransmission(f);
        String again = h.info().operation() == Operation.RDMA_READ_REQUEST
            ? "the READ asked again from PSN " + h.psn() + " for its last " + h.dmaLength() + " B"
            : h.info().operation() == Operation.FETCH_ADD ? "the FETCH_ADD sent again with its PSN"
            : "sent again";
        if (cause == null) {
            return again + ": the requester went back to an earlier PSN";
        }
        if (cause.fromPsn() == h.psn()) {
            return again + ": " + causeText(cause) + "; " + retries(cause);
        }
        return again + ": go-back-N, every PSN after " + cause.fromPsn() + " is sent again in order too";
    }

    private static String causeText(QpEvent.Retransmission e) {
        return switch (e.cause()) {
            case NAK_SEQUENCE_ERROR -> "the NAK asked for PSN " + e.fromPsn() + ", so A goes back to it (9.7.5.2.3)";
            case TIMEOUT -> "A's ACK timer expired with PSN " + e.fromPsn() + " unacknowledged, so A goes back to "
                + "it (9.7.6.1.3)";
            case IMPLIED_NAK -> "a later response arrived while PSN " + e.fromPsn() + " was missing: an implied NAK, "
                + "so A asks again from the gap (C9-113)";
            case RNR_NAK -> "the RNR NAK's wait is over, so A sends PSN " + e.fromPsn() + " again (9.7.5.2.8)";
        };
    }

    private static String retries(QpEvent.Retransmission e) {
        if (e.retriesLeft() < 0) {
            return "rnr_retry 7 retries without end";
        }
        String what = e.cause() == RetransmitCause.RNR_NAK ? "RNR retr" : "retr";
        return e.retriesLeft() + " " + what + (e.retriesLeft() == 1 ? "y" : "ies") + " left";
    }

    /** The requester's latest retransmission at or before {@code f}, on {@code f}'s side. */
    private QpEvent.Retransmission lastRetransmission(WireFrame f) {
        QpEvent.Retransmission last = null;
        for (QpEvent e : events) {
            if (e.timeNs() > f.timeNs()) {
                break;
            }
            if (e instanceof QpEvent.Retransmission r && r.atA() == f.fromA()) {
                last = r;
            }
        }
        return last;
    }

    private String response(WireFrame f, FrameFields h) {
        Requester r = requesters[f.fromA() ? 1 : 0];
        String why = switch (h.info().operation()) {
            case RDMA_READ_RESPONSE -> readResponse(h, r, f.lost() != null);
            case ATOMIC_ACKNOWLEDGE -> atomicAck(h, r);
            default -> acknowledge(f, h, r);
        };
        if (h.syndrome() >= 0 && AethSyndrome.kind(h.syndrome()) == AethKind.ACK && f.lost() == null) {
            r.askedForAck.removeIf(p -> Psn.diff(p, h.psn()) <= 0);
            r.lastAcked = h.psn();
        }
        return why;
    }

    private String acknowledge(WireFrame f, FrameFields h, Requester r) {
        int syndrome = h.syndrome();
        AethKind kind = AethSyndrome.kind(syndrome);
        if (kind == AethKind.RNR_NAK) {
            r.expected = h.psn(); // nothing was executed: B still expects the SEND
            long ns = AethSyndrome.rnrTimerNs(AethSyndrome.value(syndrome));
            return "RNR NAK: the SEND of PSN " + h.psn() + " found no receive WQE at B, so nothing was executed; its "
                + "timer code " + AethSyndrome.value(syndrome) + " tells A to wait " + duration(ns)
                + " before sending it again (9.7.5.2.8)" + rnrWait(f);
        }
        if (kind == AethKind.NAK) {
            NakCode code = AethSyndrome.nakCode(syndrome);
            if (code == NakCode.PSN_SEQUENCE_ERROR) {
                return "NAK PSN sequence error: a packet after PSN " + h.psn() + " arrived while B still expected "
                    + h.psn() + "; B NAKs once per gap, names the PSN it expects, and drops what follows until it "
                    + "comes (9.7.5.1.2, C9-106)";
            }
            return "NAK " + AethSyndrome.describe(syndrome) + ": a fatal error for the request";
        }
        if (r.lastAcked >= 0 && Psn.diff(h.psn(), r.lastAcked) <= 0) {
            return "B had executed PSN " + h.psn() + " already: a repeat is acknowledged again but not executed "
                + "twice (9.7.5.1.3)";
        }
        String msn = "MSN " + h.msn() + " counts the messages B has completed (9.7.5.1.2)";
        long covered = r.askedForAck.stream().filter(p -> Psn.diff(p, h.psn()) <= 0).count();
        if (covered > 1) {
            return "one ACK for PSN " + h.psn() + " answers all " + covered + " requests up to it that asked for one "
                + "and had no ACK yet: an ACK acknowledges every PSN up to its own (9.7.5.1.1); " + msn;
        }
        return "ACK: B has executed every PSN up to " + h.psn() + " in order and PSN " + h.psn()
            + " asked for an ACK (9.7.5.1.1); " + msn;
    }

    /** What A's requester said it would wait, after the RNR NAK {@code f}. */
    private String rnrWait(WireFrame f) {
        for (QpEvent e : events) {
            if (e instanceof QpEvent.RnrWait w && w.atA() != f.fromA() && w.timeNs() >= f.timeNs()) {
                return "; A's requester arms its RNR timer for " + duration(w.delayNs());
            }
        }
        return "";
    }

    private String readResponse(FrameFields h, Requester r, boolean lost) {
        int mtu = setup.mtu().bytes();
        int index = Psn.diff(h.psn(), r.readPsn) + 1;
        String why = "response " + index + " of " + responsePackets(r.readLength) + " to the READ of PSN " + r.readPsn
            + (r.resumes >= 0 ? " (the rest of the READ of PSN " + r.resumes + ")" : "") + ", at most " + mtu
            + " B each; its PSN is the request's PSN + " + (index - 1);
        if (h.info().position() != Position.MIDDLE) {
            why += "; " + h.info().position() + " carries an AETH that acknowledges too";
        }
        if (r.responseLost && h.psn() != r.nextResponse) {
            why += "; A still needs PSN " + r.nextResponse + ", so this later one is an implied NAK (C9-113)";
            r.responseLost = false;
        } else if (!lost && !r.responseLost) {
            r.nextResponse = Psn.next(h.psn());
        }
        if (lost) {
            r.responseLost = true;
        }
        return why;
    }

    private static String atomicAck(FrameFields h, Requester r) {
        if (!r.atomicsAnswered.add(h.psn())) {
            return "B executed the atomic of PSN " + h.psn() + " once already: it answers the repeat from its replay "
                + "record with the same original value " + h.original() + " and adds nothing again (9.7.5.1.3)";
        }
        return "ATOMIC ACKNOWLEDGE: B did the atomic and returns the value the 8 bytes held before: " + h.original();
    }

    private int responsePackets(long length) {
        int mtu = setup.mtu().bytes();
        return (int) Math.max(1, (length + mtu - 1) / mtu);
    }

    static String plural(int n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }

    /** A duration as a person reads it: 1.280 ms, 67.109 ms, 640 us. */
    static String duration(long ns) {
        if (ns >= 1_000_000) {
            return String.format(Locale.ROOT, "%.3f ms", ns / 1e6);
        }
        return String.format(Locale.ROOT, "%.3f us", ns / 1e3);
    }
}
