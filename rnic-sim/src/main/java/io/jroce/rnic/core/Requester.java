package io.jroce.rnic.core;

import io.jroce.stack.stats.Counter;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.Psn;
import io.jroce.stack.wire.RocePacket;
import io.jroce.stack.wire.TransportType;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QpType;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WrOpcode;

/**
 * The RC requester (IBTA Vol. 1 9.7): turns send WQEs into request packets, segmented by the path
 * MTU, keeps at most {@link #WINDOW} PSNs unacknowledged, and goes back to the oldest
 * unacknowledged PSN when told to retransmit. I/O thread only.
 *
 * <p>The send queue is walked by a cursor: WQEs before it are sent (and wait for their ACK or
 * response), WQEs after it are not started. A WQE gets its PSN range when it starts; a
 * retransmission moves the cursor back into an already started WQE and regenerates its packets
 * from the registered memory, as a hardware RNIC would.
 */
final class Requester {
    /** Unacknowledged PSNs the requester allows (rxe allows 128). */
    static final int WINDOW = 128;
    /** A multi-packet message asks for an ACK at least this often (rxe: every 64 packets). */
    static final int ACK_REQUEST_INTERVAL = 64;

    final SoftQp qp;
    final Completer completer;
    /** PSN of the next new request packet (sq_psn). */
    int nextPsn;
    /** Last PSN known to be acknowledged, explicitly or by a later response. */
    int ackedPsn;
    /** Send queue index of the WQE being transmitted. */
    long cursor;
    /** Next PSN to transmit in the cursor WQE, when that WQE has started. */
    int cursorPsn;
    int outstandingReadAtomic;
    int packetsSinceAckRequest;
    /** The highest PSN ever transmitted: a packet at or below it is a retransmission. */
    int highestSentPsn;
    /**
     * The last PSN charged to the device's {@link TransmitBudget}: the packets up to it, after
     * {@code ackedPsn}, count as in flight. A go-back-N gives back what the responder discards.
     */
    int budgetedPsn;

    // Retransmission state.
    /**
     * Set by a go-back-N to {@link #goBackPsn} until that PSN is acknowledged: a burst of late
     * responses, duplicate ACKs or NAKs that all point at or after it then causes one
     * retransmission, not one each (which would multiply the traffic on a lossy link).
     */
    boolean goingBack;
    int goBackPsn;
    long retryDeadlineNs;
    boolean timerArmed;
    int retriesLeft;
    int rnrRetriesLeft;
    boolean rnrWaiting;
    long rnrResumeNs;

    Requester(SoftQp qp) {
        this.qp = qp;
        this.completer = new Completer(this);
    }

    void reset(int sqPsn) {
        releaseBudget();
        nextPsn = sqPsn;
        ackedPsn = Psn.add(sqPsn, -1);
        cursor = qp.sq.head();
        cursorPsn = sqPsn;
        highestSentPsn = Psn.add(sqPsn, -1);
        budgetedPsn = highestSentPsn;
        outstandingReadAtomic = 0;
        packetsSinceAckRequest = 0;
        timerArmed = false;
        retriesLeft = qp.retryCount;
        rnrRetriesLeft = qp.rnrRetry;
        rnrWaiting = false;
        goingBack = false;
    }

    int nextPsn() {
        return nextPsn;
    }

    /** Sends what the window, max_rd_atomic and fences allow. */
    void doWork(long nowNs) {
        QpState state = qp.state;
        if (state == QpState.ERR) {
            flush();
            return;
        }
        if (state != QpState.RTS && state != QpState.SQD) {
            return;
        }
        if (rnrWaiting) {
            if (nowNs - rnrResumeNs < 0) {
                return;
            }
            rnrWaiting = false;
        }
        WorkQueueRing<SendWqe> sq = qp.sq;
        while (cursor < sq.tail()) {
            SendWqe w = sq.at(cursor);
            if (!w.started && !start(w, state)) {
                break;
            }
            if (qp.state == QpState.ERR) {
                return;
            }
            if (!transmit(w)) {
                break;
            }
            if (qp.type != QpType.RC) {
                // UC and UD are unacknowledged: a WQE is complete once its last packet is sent (IBTA 9.8).
                if (w.isLocal() && w.status != WcStatus.SUCCESS) {
                    completer.fail(w, w.status);
                    return;
                }
                completer.complete(w, w.isLocal() ? w.status : WcStatus.SUCCESS);
                cursor = sq.head();
                continue;
            }
            cursor++;
            if (cursor < sq.tail() && sq.at(cursor).started) {
                cursorPsn = completer.firstUnackedPsn(sq.at(cursor)); // still going back N
            }
        }
        if (qp.type == QpType.RC) {
            completer.retireCompleted(nowNs); // a local operation may be complete already
        }
        if (hasOutstanding() && !timerArmed) {
            armTimer(nowNs);
        }
    }

    /** Gives {@code w} its PSN range, or returns false when it must wait. */
    private boolean start(SendWqe w, QpState state) {
        if (state == QpState.SQD) {
            return false; // SQD: finish messages in progress, start no new ones (IBTA 10.3.1).
        }
        boolean readAtomic = w.isReadOrAtomic();
        if (readAtomic && outstandingReadAtomic >= Math.max(1, qp.maxRdAtomic)) {
            return false; // IBTA 9.5: at most max_rd_atomic RDMA READ / atomic requests outstanding.
        }
        if (w.fence && outstandingReadAtomic > 0) {
            return false; // IBV_SEND_FENCE: wait for earlier READs and atomics to complete.
        }
        if (qp.type == QpType.RC && Psn.diff(nextPsn, Psn.next(ackedPsn)) >= WINDOW) {
            return false;
        }
        if (!w.isInline && !w.sg.regionsValid(qp.device.keys())) {
            completer.fail(w, WcStatus.LOC_PROT_ERR);
            return false;
        }
        int packets = w.packetCount(qp.mtu);
        if (w.isLocal()) {
            // Executed when reached, in order; it completes once everything before it has.
            w.status = LocalOperations.execute(qp, w);
            w.responseDone = true;
        }
        w.started = true;
        w.firstPsn = nextPsn;
        w.lastPsn = Psn.add(nextPsn, packets - 1);
        nextPsn = Psn.add(nextPsn, packets);
        cursorPsn = w.firstPsn;
        if (readAtomic) {
            outstandingReadAtomic++;
        }
        if (w.opcode == WrOpcode.SEND || w.opcode == WrOpcode.SEND_WITH_IMM || w.opcode == WrOpcode.SEND_WITH_INV) {
            qp.device.counterSet().increment(Counter.RDMA_SENDS);
        }
        return true;
    }

    /** Transmits the cursor WQE from {@link #cursorPsn}; false when the window stopped it. */
    private boolean transmit(SendWqe w) {
        PacketSender out = qp.device.engine().sender();
        while (Psn.compare(cursorPsn, w.lastPsn) <= 0) {
            if (qp.type == QpType.RC && Psn.diff(cursorPsn, Psn.next(ackedPsn)) >= WINDOW) {
                return false;
            }
            if (qp.type == QpType.RC && Psn.compare(cursorPsn, budgetedPsn) > 0
                && !qp.device.engine().budget().mayTransmit(qp)) {
                return false; // uncharged PSNs wait for the device's budget; the ACK that frees it reschedules
            }
            int index = Psn.diff(cursorPsn, w.firstPsn);
            long offset = (long) index * qp.mtu;
            switch (w.opcode) {
                case RDMA_READ -> {
                    // One request covers every response PSN from here on (IBTA 9.7.4.1.4).
                    RocePacket p = out.begin(qp, Opcode.RC_RDMA_READ_REQUEST, cursorPsn, 0);
                    p.bth().ackRequest(true);
                    p.reth().virtualAddress(w.remoteAddress + offset).rKey(w.rkey).dmaLength(w.length - offset);
                    out.send(qp);
                    noteTransmitted(cursorPsn, w.lastPsn); // the request holds all its response PSNs
                    cursorPsn = Psn.next(w.lastPsn);
                    return true;
                }
                case ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> {
                    boolean cas = w.opcode == WrOpcode.ATOMIC_CMP_AND_SWP;
                    RocePacket p = out.begin(qp, cas ? Opcode.RC_COMPARE_SWAP : Opcode.RC_FETCH_ADD, cursorPsn, 0);
                    p.bth().ackRequest(true);
                    p.atomicEth().virtualAddress(w.remoteAddress).rKey(w.rkey)
                        .swapAddData(cas ? w.swap : w.compareAdd).compareData(cas ? w.compareAdd : 0);
                    out.send(qp);
                    noteTransmitted(cursorPsn, cursorPsn);
                    cursorPsn = Psn.next(cursorPsn);
                    return true;
                }
                default -> sendSegment(out, w, index, offset);
            }
            cursorPsn = Psn.next(cursorPsn);
        }
        return true;
    }

    /** Counts a packet at {@code psn} as a retransmission when it was sent before; it used PSNs up to {@code lastPsn}. */
    private void noteTransmitted(int psn, int lastPsn) {
        if (Psn.compare(psn, highestSentPsn) <= 0) {
            qp.device.counterSet().increment(Counter.RETRANSMITTED_PKTS);
        }
        if (Psn.compare(lastPsn, highestSentPsn) > 0) {
            highestSentPsn = lastPsn;
        }
        if (qp.type == QpType.RC && Psn.compare(lastPsn, budgetedPsn) > 0) {
            int before = inFlight();
            budgetedPsn = lastPsn;
            qp.device.engine().budget().add(inFlight() - before);
        }
    }

    /** Waits for the device's budget with nothing of its own in flight: nothing to time out. */
    private boolean blockedOnBudget() {
        return qp.waitingForBudget && inFlight() == 0 && outstandingReadAtomic == 0;
    }

    /** RC packets (READ response PSNs included) charged to the budget and not yet acknowledged. */
    int inFlight() {
        int d = Psn.diff(budgetedPsn, ackedPsn);
        return d > 0 ? d : 0;
    }

    /** The acknowledged PSN moves to {@code psn}: what it covers leaves the device's budget. */
    void acknowledgedTo(int psn) {
        int before = inFlight();
        ackedPsn = psn;
        if (qp.type == QpType.RC) {
            qp.device.engine().budget().add(inFlight() - before);
        }
    }

    /** Returns everything in flight to the device's budget (reset, flush, destroy). */
    void releaseBudget() {
        if (qp.type == QpType.RC) {
            qp.device.engine().budget().add(-inFlight());
        }
        budgetedPsn = ackedPsn;
    }

    /**
     * Gives back the packets from {@code psn} on: after a NAK, an RNR NAK or a timeout the
     * responder has dropped them, and a QP that retries forever (rnr_retry 7) must not hold the
     * device's budget while it waits. Sending them again charges them again.
     */
    private void releaseBudgetFrom(int psn) {
        int last = Psn.add(psn, -1);
        if (qp.type == QpType.RC && Psn.compare(last, budgetedPsn) < 0) {
            int before = inFlight();
            budgetedPsn = Psn.compare(last, ackedPsn) > 0 ? last : ackedPsn;
            qp.device.engine().budget().add(inFlight() - before);
        }
    }

    /**
     * One SEND or RDMA WRITE packet: FIRST/MIDDLE/LAST/ONLY by position (IBTA 9.7.4.1.2); on UC the
     * same opcodes in the UC range, on UD a SEND ONLY with a DETH (IBTA 9.8.3).
     */
    private void sendSegment(PacketSender out, SendWqe w, int index, long offset) {
        int payload = (int) Math.min(qp.mtu, w.length - offset);
        boolean first = index == 0;
        boolean last = cursorPsn == w.lastPsn;
        boolean write = w.opcode == WrOpcode.RDMA_WRITE || w.opcode == WrOpcode.RDMA_WRITE_WITH_IMM;
        boolean imm = w.opcode.hasImmediate() && last;
        RocePacket p;
        if (qp.type == QpType.UD) {
            p = out.begin(w.remoteQpn, imm ? Opcode.UD_SEND_ONLY_WITH_IMMEDIATE : Opcode.UD_SEND_ONLY, cursorPsn, payload);
            // A Q_Key with the high bit set means "use the QP's own Q_Key" (IBTA 10.2.4, C10-15).
            p.deth().qKey(w.remoteQkey < 0 ? qp.qkey : w.remoteQkey).sourceQp(qp.qpn);
        } else {
            int opcode = write ? writeOpcode(first, last, imm) : sendOpcode(first, last, imm,
                w.opcode == WrOpcode.SEND_WITH_INV);
            p = out.begin(qp, qp.type == QpType.UC ? opcode | TransportType.UC.opcodePrefix() : opcode, cursorPsn, payload);
        }
        boolean ackRequest = qp.type == QpType.RC && (last || ++packetsSinceAckRequest >= ACK_REQUEST_INTERVAL);
        if (ackRequest) {
            packetsSinceAckRequest = 0;
        }
        p.bth().ackRequest(ackRequest).solicitedEvent(last && w.solicited);
        if (write && first) {
            p.reth().virtualAddress(w.remoteAddress).rKey(w.rkey).dmaLength(w.length);
        }
        if (imm) {
            p.immDt().immediateData(w.immData);
        }
        if (p.info().hasInvalidate()) {
            p.ieth().rKey(w.invalidateRkey);
        }
        if (payload > 0) {
            if (w.isInline) {
                out.buffer().putBytes(p.payloadOffset(), w.inlineView, (int) offset, payload);
            } else {
                w.sg.gather(offset, out.buffer(), p.payloadOffset(), payload);
            }
        }
        if (qp.type == QpType.UD) {
            out.send(w.ah.sgid, w.ah.dgid, w.ah.av.udpPort());
        } else {
            out.send(qp);
        }
        noteTransmitted(cursorPsn, cursorPsn);
    }

    private static int sendOpcode(boolean first, boolean last, boolean imm, boolean invalidate) {
        if (first && last) {
            return invalidate ? Opcode.RC_SEND_ONLY_WITH_INVALIDATE
                : imm ? Opcode.RC_SEND_ONLY_WITH_IMMEDIATE : Opcode.RC_SEND_ONLY;
        }
        if (first) {
            return Opcode.RC_SEND_FIRST;
        }
        if (last) {
            return invalidate ? Opcode.RC_SEND_LAST_WITH_INVALIDATE
                : imm ? Opcode.RC_SEND_LAST_WITH_IMMEDIATE : Opcode.RC_SEND_LAST;
        }
        return Opcode.RC_SEND_MIDDLE;
    }

    private static int writeOpcode(boolean first, boolean last, boolean imm) {
        if (first && last) {
            return imm ? Opcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE : Opcode.RC_RDMA_WRITE_ONLY;
        }
        if (first) {
            return Opcode.RC_RDMA_WRITE_FIRST;
        }
        if (last) {
            return imm ? Opcode.RC_RDMA_WRITE_LAST_WITH_IMMEDIATE : Opcode.RC_RDMA_WRITE_LAST;
        }
        return Opcode.RC_RDMA_WRITE_MIDDLE;
    }

    // ---------------------------------------------------------------- retransmission

    /** True while a started WQE waits for its ACK or response. */
    boolean hasOutstanding() {
        WorkQueueRing<SendWqe> sq = qp.sq;
        return sq.head() < sq.tail() && sq.at(sq.head()).started;
    }

    /**
     * Starts the transport timer (IBTA 9.7.6.1.3) while a started WQE waits. A QP whose next
     * packets wait for the device's {@link TransmitBudget}, with nothing of its own in flight, has
     * nothing the responder could have lost: no timer, so waiting costs no retries.
     */
    void armTimer(long nowNs) {
        long timeoutNs = Timers.ackTimeoutNs(qp.timeout);
        timerArmed = timeoutNs > 0 && hasOutstanding() && !blockedOnBudget();
        retryDeadlineNs = nowNs + timeoutNs;
    }

    /**
     * The responder answered {@code psn} (an ACK, or response data placed): the retry budget is
     * whole again and the timer restarts (IBTA 9.7.6.1.3); a go-back-N to it or before is over.
     */
    void onProgress(int psn, long nowNs) {
        if (goingBack && Psn.compare(psn, goBackPsn) >= 0) {
            goingBack = false;
        }
        retriesLeft = qp.retryCount;
        rnrRetriesLeft = qp.rnrRetry;
        armTimer(nowNs);
    }

    /** The local ACK timer: on expiry, retransmit from the oldest unacknowledged PSN or give up. */
    void onTimer(long nowNs) {
        if (rnrWaiting && nowNs - rnrResumeNs >= 0) {
            qp.device.engine().schedule(qp);
        }
        if (!timerArmed || nowNs - retryDeadlineNs < 0) {
            return;
        }
        if (!hasOutstanding() || blockedOnBudget()) {
            timerArmed = false;
            return;
        }
        if (!consumeRetry()) {
            return;
        }
        goingBack = false; // a timeout always goes back, whatever was asked before
        goBackTo(completer.firstUnackedPsn(qp.sq.at(qp.sq.head())));
        armTimer(nowNs);
        qp.device.engine().schedule(qp);
    }

    /**
     * Takes one retry from retry_cnt; when none is left, completes the oldest WQE with
     * RETRY_EXC_ERR and moves the QP to ERR (IBTA 9.7.6.1.3, C9-140). retry_cnt 7 means seven
     * retries here, as the spec says; rxe retries forever on 7.
     *
     * @return true when a retry may go ahead
     */
    boolean consumeRetry() {
        if (retriesLeft == 0) {
            qp.device.counterSet().increment(Counter.RETRY_EXCEEDED_ERR);
            completer.fail(qp.sq.at(qp.sq.head()), WcStatus.RETRY_EXC_ERR);
            return false;
        }
        retriesLeft--;
        qp.device.counterSet().increment(Counter.COMPLETER_RETRY_ERR);
        return true;
    }

    /** True when a go-back-N to {@code psn} or an earlier PSN is already under way. */
    boolean alreadyGoingBackTo(int psn) {
        return goingBack && Psn.compare(psn, goBackPsn) >= 0;
    }

    /** Go-back-N: the next packet sent is {@code psn}, inside the WQE that owns it (IBTA 9.7.6.1.3). */
    void goBackTo(int psn) {
        goingBack = true;
        goBackPsn = psn;
        releaseBudgetFrom(psn);
        WorkQueueRing<SendWqe> sq = qp.sq;
        for (long i = sq.head(); i < sq.tail(); i++) {
            SendWqe w = sq.at(i);
            if (!w.started) {
                return;
            }
            if (Psn.compare(psn, w.firstPsn) >= 0 && Psn.compare(psn, w.lastPsn) <= 0) {
                cursor = i;
                cursorPsn = psn;
                return;
            }
        }
    }

    void waitForRnr(long nowNs, int timerCode) {
        rnrWaiting = true;
        rnrResumeNs = nowNs + Timers.rnrDelayNs(timerCode);
    }

    /** Completes every WQE with WR_FLUSH_ERR (the QP is in ERR). */
    void flush() {
        WorkQueueRing<SendWqe> sq = qp.sq;
        while (!sq.isEmpty()) {
            completer.complete(sq.at(sq.head()), WcStatus.WR_FLUSH_ERR);
        }
        cursor = sq.head();
        timerArmed = false;
        rnrWaiting = false;
        releaseBudget();
    }
}
