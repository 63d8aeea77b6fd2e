package io.jroce.rnic.core;

import io.jroce.rnic.events.RetransmitCause;
import io.jroce.stack.stats.Counter;
import io.jroce.stack.wire.AethFlyweight;
import io.jroce.stack.wire.AethKind;
import io.jroce.stack.wire.Psn;
import io.jroce.stack.wire.RocePacket;
import io.jroce.verbs.QpState;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import io.jroce.verbs.spi.CompletionWriter;

/**
 * The RC completer (IBTA Vol. 1 9.7.5.2): takes ACKs, NAKs, RDMA READ responses and atomic
 * acknowledgements in whatever order the network delivers them, places response data, retires
 * send WQEs in order and writes their completions to the QP's send {@link CompletionSink}. I/O
 * thread only.
 *
 * <p>State: none of its own; it moves the acknowledged PSN, takes retries and retires WQEs in the
 * QP's {@link SendQueueState} (see there for who writes which field), and moves the QP to ERR
 * through {@link QpErrors}. It never calls the {@link Requester}: the requester calls it.
 */
final class Completer {
    /** Fills the completions this class generates (their fields are read-only to applications). */
    private static final CompletionWriter WC = CompletionWriter.get();
    private final RnicContext ctx;
    private final QpContext qp;
    private final SendQueueState s;
    private final QpErrors errors;

    Completer(RnicContext ctx, QpContext qp, SendQueueState state, QpErrors errors) {
        this.ctx = ctx;
        this.qp = qp;
        this.s = state;
        this.errors = errors;
    }

    /** An ACKNOWLEDGE packet: ACK, RNR NAK or NAK (IBTA 9.7.5.2.1-9.7.5.2.8). */
    void onAcknowledge(RocePacket p, long nowNs) {
        int psn = p.bth().psn();
        AethFlyweight aeth = p.aeth();
        if (Psn.compare(psn, s.highestSentPsn) > 0
            || aeth.kind() != AethKind.ACK && Psn.compare(psn, s.ackedPsn) <= 0) {
            // An acknowledgement of a PSN never sent answers nothing of ours (a forged or misrouted
            // packet, as rxe's check_psn ignores it); a NAK for a PSN already acknowledged is stale
            // (it was overtaken). Either costs no retry, fails nothing and rewinds nothing.
            ctx.counters.increment(Counter.DROP_UNEXPECTED_RESPONSE);
            return;
        }
        switch (aeth.kind()) {
            case ACK -> acknowledged(psn, nowNs);
            case RNR_NAK -> {
                // Everything before the NAKed PSN was received (IBTA 9.7.5.2.8).
                acknowledged(Psn.add(psn, -1), nowNs);
                ctx.counters.increment(Counter.RCVD_RNR_ERR);
                ctx.events.nakReceived(qp.qpn, psn, aeth.syndrome());
                if (!s.hasOutstanding()) {
                    return;
                }
                if (qp.rnrRetry != 7) { // 7 = retry forever (IBTA 9.7.5.2.8, C9-151)
                    if (s.rnrRetriesLeft == 0) {
                        ctx.counters.increment(Counter.RNR_RETRY_EXCEEDED_ERR);
                        fail(qp.sq.at(qp.sq.head()), WcStatus.RNR_RETRY_EXC_ERR);
                        return;
                    }
                    s.rnrRetriesLeft--;
                }
                s.goBackTo(psn);
                s.waitForRnr(nowNs, aeth.rnrTimer());
                ctx.events.rnrWait(qp.qpn, psn, s.rnrResumeNs - nowNs); // the retry is reported when the wait ends
            }
            case NAK -> onNak(p, psn, aeth, nowNs);
            default -> ctx.counters.increment(Counter.DROP_UNEXPECTED_RESPONSE);
        }
    }

    private void onNak(RocePacket p, int psn, AethFlyweight aeth, long nowNs) {
        if (aeth.nakCode() == null) {
            // A reserved NAK code (IBTA Vol. 1 9.7.5.2: codes 5..31 are reserved) names no error
            // to report: dropped and counted, acknowledging nothing. rxe instead fails the WQE with
            // REM_OP_ERR; no legitimate responder sends one, so dropping costs no interoperability
            // and spares the connection a packet that may well be forged.
            ctx.counters.increment(Counter.DROP_UNEXPECTED_RESPONSE);
            return;
        }
        ctx.events.nakReceived(qp.qpn, psn, aeth.syndrome());
        acknowledged(Psn.add(psn, -1), nowNs);
        if (!s.hasOutstanding()) {
            return;
        }
        switch (aeth.nakCode()) {
            case PSN_SEQUENCE_ERROR -> {
                // The responder saw a gap: go back to the PSN it expects (IBTA 9.7.5.2.3).
                ctx.counters.increment(Counter.RCVD_SEQ_ERR);
                if (!s.alreadyGoingBackTo(psn) && consumeRetry()) {
                    s.goBackTo(psn);
                    ctx.events.retransmission(qp.qpn, psn, RetransmitCause.NAK_SEQUENCE_ERROR, s.retriesLeft);
                }
            }
            case INVALID_REQUEST -> fail(wqeOwning(psn), WcStatus.REM_INV_REQ_ERR);
            case REMOTE_ACCESS_ERROR -> fail(wqeOwning(psn), WcStatus.REM_ACCESS_ERR);
            case REMOTE_OPERATIONAL_ERROR -> fail(wqeOwning(psn), WcStatus.REM_OP_ERR);
            default -> fail(wqeOwning(psn), WcStatus.REM_INV_REQ_ERR);
        }
    }

    /** An RDMA READ response packet: place its data if it is the next one expected. */
    void onReadResponse(RocePacket p, long nowNs) {
        int psn = p.bth().psn();
        SendWqe w = readOrAtomicOwning(psn);
        if (w == null || w.opcode != WrOpcode.RDMA_READ) {
            ctx.counters.increment(Counter.DROP_UNEXPECTED_RESPONSE);
            return;
        }
        int expected = Psn.add(w.firstPsn, w.readPacketsDone);
        int order = Psn.compare(psn, expected);
        if (order < 0) {
            ctx.counters.increment(Counter.DROP_UNEXPECTED_RESPONSE); // a duplicate response
            return;
        }
        if (order > 0) {
            // A response skipped PSNs: an implicit NAK; ask again from the first missing one (C9-113).
            if (!s.alreadyGoingBackTo(expected)) {
                ctx.counters.increment(Counter.RCVD_SEQ_ERR);
                s.goBackTo(expected);
                ctx.events.retransmission(qp.qpn, expected, RetransmitCause.IMPLIED_NAK, s.retriesLeft);
            }
            return;
        }
        if (!w.sg.regionsValid(ctx.keys)) {
            fail(w, WcStatus.LOC_PROT_ERR); // the local buffer was deregistered after the post
            return;
        }
        long offset = (long) w.readPacketsDone * qp.mtu;
        int expectedLength = (int) Math.min(qp.mtu, w.length - offset);
        if (p.payloadLength() != expectedLength) {
            ctx.counters.increment(Counter.DROP_BAD_LENGTH);
            return;
        }
        if (expectedLength > 0) {
            w.sg.scatter(offset, p.buffer(), p.payloadOffset(), expectedLength);
        }
        w.readPacketsDone++;
        // New READ data is progress even when a later response already acknowledged beyond it.
        s.onProgress(psn, nowNs);
        if (psn == w.lastPsn) {
            w.responseDone = true;
        }
        acknowledged(psn, nowNs);
    }

    /** An ATOMIC ACKNOWLEDGE: the original remote value goes to the local buffer, native order as rxe. */
    void onAtomicAcknowledge(RocePacket p, long nowNs) {
        int psn = p.bth().psn();
        SendWqe w = readOrAtomicOwning(psn);
        if (w == null || !w.opcode.isAtomic() || w.responseDone) {
            ctx.counters.increment(Counter.DROP_UNEXPECTED_RESPONSE);
            return;
        }
        if (!w.sg.regionsValid(ctx.keys)) {
            fail(w, WcStatus.LOC_PROT_ERR);
            return;
        }
        w.sg.putLongNative(p.atomicAckEth().originalRemoteData());
        w.responseDone = true;
        acknowledged(psn, nowNs);
    }

    /** Everything up to {@code psn} is acknowledged: advance, then retire what is complete. */
    void acknowledged(int psn, long nowNs) {
        if (Psn.compare(psn, s.nextPsn) >= 0) {
            ctx.counters.increment(Counter.DROP_UNEXPECTED_RESPONSE); // acknowledges nothing we sent
            s.settleTimer(nowNs); // READ data placed before this is progress all the same
            return;
        }
        if (Psn.compare(psn, s.ackedPsn) > 0) {
            s.acknowledgedTo(psn);
            s.onProgress(psn, nowNs);
            ctx.events.requesterPsnsUpdated(qp.qpn, s.nextPsn, Psn.next(psn));
        }
        retireCompleted(nowNs);
    }

    void retireCompleted(long nowNs) {
        WorkQueueRing<SendWqe> sq = qp.sq;
        while (!sq.isEmpty()) {
            SendWqe w = sq.at(sq.head());
            if (!w.started) {
                break;
            }
            boolean coveredByAck = Psn.compare(s.ackedPsn, w.lastPsn) >= 0;
            if (w.isReadOrAtomic()) {
                if (!w.responseDone) {
                    if (coveredByAck) {
                        // A later request was acknowledged but this response never came: implicit NAK.
                        int retry = s.firstUnackedPsn(w);
                        if (!s.alreadyGoingBackTo(retry)) {
                            s.goBackTo(retry);
                            ctx.events.retransmission(qp.qpn, retry, RetransmitCause.IMPLIED_NAK, s.retriesLeft);
                        }
                    }
                    break;
                }
            } else if (!coveredByAck) {
                break;
            }
            if (w.isLocal() && w.status != WcStatus.SUCCESS) {
                fail(w, w.status);
                return;
            }
            complete(w, WcStatus.SUCCESS);
        }
        if (s.cursor < sq.head()) {
            s.cursor = sq.head();
            if (!sq.isEmpty() && sq.at(s.cursor).started) {
                s.cursorPsn = s.firstUnackedPsn(sq.at(s.cursor));
            }
        }
        s.settleTimer(nowNs);
    }

    private boolean isDone(SendWqe w) {
        return w.started && (w.isReadOrAtomic() ? w.responseDone : Psn.compare(s.ackedPsn, w.lastPsn) >= 0);
    }

    /** The READ or atomic WQE whose PSNs hold {@code psn}, or null (also when its request was never sent). */
    private SendWqe readOrAtomicOwning(int psn) {
        if (Psn.compare(psn, s.highestSentPsn) > 0) {
            // A WQE has its PSNs once started, but the window or the budget may hold its request
            // back: no responder was asked for these PSNs yet (as the check in onAcknowledge).
            return null;
        }
        SendWqe w = wqeOwning(psn);
        return w != null && w.isReadOrAtomic() ? w : null;
    }

    private SendWqe wqeOwning(int psn) {
        WorkQueueRing<SendWqe> sq = qp.sq;
        for (long i = sq.head(); i < sq.tail(); i++) {
            SendWqe w = sq.at(i);
            if (!w.started) {
                return null;
            }
            if (Psn.compare(psn, w.firstPsn) >= 0 && Psn.compare(psn, w.lastPsn) <= 0) {
                return w;
            }
        }
        return null;
    }

    /**
     * Takes one retry from retry_cnt; when none is left, completes the oldest WQE with
     * RETRY_EXC_ERR and moves the QP to ERR (IBTA 9.7.6.1.3, C9-140). retry_cnt 7 means seven
     * retries here, as the spec says; rxe retries forever on 7.
     *
     * @return true when a retry may go ahead
     */
    boolean consumeRetry() {
        if (s.retriesLeft == 0) {
            ctx.counters.increment(Counter.RETRY_EXCEEDED_ERR);
            fail(qp.sq.at(qp.sq.head()), WcStatus.RETRY_EXC_ERR);
            return false;
        }
        s.retriesLeft--;
        ctx.counters.increment(Counter.COMPLETER_RETRY_ERR);
        return true;
    }

    /** Retires the head WQE with {@code status}, writing a completion when it is due. */
    void complete(SendWqe w, WcStatus status) {
        boolean due = w.signaled || status != WcStatus.SUCCESS;
        long wrId = w.wrId;
        WcOpcode opcode = w.opcode.completionOpcode();
        int byteLen = (int) w.length;
        if (w.started && w.isReadOrAtomic() && s.outstandingReadAtomic > 0) {
            s.outstandingReadAtomic--;
        }
        w.started = false;
        qp.sq.pop(); // before the completion is visible: a poller may post into the freed slot at once
        if (due) {
            WorkCompletion wc = qp.sendCq.claim();
            if (wc != null) {
                WC.set(wc, wrId, status, opcode, byteLen, false, 0, qp.qpn, 0, 0);
                qp.sendCq.publish(false);
            }
        }
    }

    /**
     * Completes {@code w} (null: the oldest WQE) with an error and the QP enters ERR, which flushes
     * the rest (IBTA 10.3.1: a completion error moves an RC QP to the Error state).
     */
    void fail(SendWqe w, WcStatus status) {
        WorkQueueRing<SendWqe> sq = qp.sq;
        // The state changes first, so that whoever polls the error completion sees the QP in ERR.
        QpState from = qp.state;
        qp.state = QpState.ERR;
        if (from != QpState.ERR) {
            ctx.events.qpStateChanged(qp.qpn, from, QpState.ERR);
        }
        // Completions stay in order: earlier WQEs complete first, successfully only if they are done.
        while (w != null && !sq.isEmpty() && sq.at(sq.head()) != w) {
            complete(sq.at(sq.head()), isDone(sq.at(sq.head())) ? WcStatus.SUCCESS : WcStatus.WR_FLUSH_ERR);
        }
        if (!sq.isEmpty()) {
            complete(sq.at(sq.head()), status);
        }
        errors.enterError();
    }
}
