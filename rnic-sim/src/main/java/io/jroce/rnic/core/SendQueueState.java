package io.jroce.rnic.core;

import io.jroce.rnic.events.ProtocolEvents;
import io.jroce.stack.wire.Psn;
import io.jroce.verbs.QpType;
import io.jroce.verbs.WrOpcode;

/**
 * The send side's PSN bookkeeping of one QP, shared by its {@link Requester} (which transmits) and
 * its {@link Completer} (which takes the responses): the window, the cursor, go-back-N, the local
 * ACK timer, retry counts and the packets charged to the device's {@link TransmitBudget}. I/O
 * thread only.
 *
 * <p>Who writes what: the requester moves {@link #nextPsn} (a WQE starts), {@link #highestSentPsn}
 * and the budget charge up ({@link #charge}), and the cursor forward while it transmits; the
 * completer moves {@link #ackedPsn} ({@link #acknowledgedTo}), takes retries from
 * {@link #retriesLeft} and {@link #rnrRetriesLeft}, and moves the cursor to the send queue's head
 * when it retires WQEs; either starts a go-back-N ({@link #goBackTo}, which moves the cursor back
 * and gives back the budget from there) and re-arms the timer. {@link #outstandingReadAtomic} goes
 * up when the requester starts a READ or atomic and down when the completer retires it.
 */
final class SendQueueState {
    private final QpContext qp;
    private final TransmitBudget budget;

    /** PSN of the next new request packet (sq_psn). */
    int nextPsn;
    /** Last PSN known to be acknowledged, explicitly or by a later response. */
    int ackedPsn;
    /** Send queue index of the WQE being transmitted. */
    long cursor;
    /** Next PSN to transmit in the cursor WQE, when that WQE has started. */
    int cursorPsn;
    int outstandingReadAtomic;
    /** The highest PSN ever transmitted: a packet at or below it is a retransmission. */
    int highestSentPsn;
    /**
     * The last PSN charged to the device's {@link TransmitBudget}: the packets up to it, after
     * {@code ackedPsn}, count as in flight. A go-back-N gives back what the responder discards.
     */
    int budgetedPsn;
    /**
     * Set by a go-back-N to {@link #goBackPsn} until that PSN is acknowledged: a burst of late
     * responses, duplicate ACKs or NAKs that all point at or after it then causes one
     * retransmission, not one each (which would multiply the traffic on a lossy link).
     */
    boolean goingBack;
    int goBackPsn;
    long retryDeadlineNs;
    boolean timerArmed;
    /** An answer made progress since the last {@link #settleTimer}: the timer restarts there. */
    private boolean timerRestartPending;
    /** Hears each start of the transport timer, for the event log. */
    private final ProtocolEvents events;
    /** Hears each deadline, so that timer ticks before the earliest one visit no QP. */
    private final TimerFloor timerFloor;
    int retriesLeft;
    int rnrRetriesLeft;
    boolean rnrWaiting;
    long rnrResumeNs;

    SendQueueState(QpContext qp, TransmitBudget budget, ProtocolEvents events, TimerFloor timerFloor) {
        this.qp = qp;
        this.budget = budget;
        this.events = events;
        this.timerFloor = timerFloor;
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
        timerArmed = false;
        timerRestartPending = false;
        retriesLeft = qp.retryCount;
        rnrRetriesLeft = qp.rnrRetry;
        rnrWaiting = false;
        goingBack = false;
    }

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
        if (timerArmed) {
            timerFloor.note(retryDeadlineNs);
            events.ackTimerSet(qp.qpn, timeoutNs);
        }
    }

    /** Tells {@code floor} the deadlines still pending: the armed ACK timer, the RNR wait. */
    void noteDeadlines(TimerFloor floor) {
        if (timerArmed) {
            floor.note(retryDeadlineNs);
        }
        if (rnrWaiting) {
            floor.note(rnrResumeNs);
        }
    }

    /**
     * The responder answered {@code psn} (an ACK, or response data placed): the retry budget is
     * whole again and the timer restarts (IBTA 9.7.6.1.3) at the next {@link #settleTimer}; a
     * go-back-N to it or before is over.
     */
    void onProgress(int psn, long nowNs) {
        if (goingBack && Psn.compare(psn, goBackPsn) >= 0) {
            goingBack = false;
        }
        retriesLeft = qp.retryCount;
        rnrRetriesLeft = qp.rnrRetry;
        timerRestartPending = true; // by settleTimer, once what this answered is retired
    }

    /**
     * After the completer retired what an answer completed: the timer stops when nothing waits any
     * more, and restarts when an answer came and something still waits. Settled after the
     * retirement, not at the answer, so a timer is never started for a request that the same answer
     * completes.
     */
    void settleTimer(long nowNs) {
        boolean restart = timerRestartPending;
        timerRestartPending = false;
        if (!hasOutstanding()) {
            timerArmed = false;
        } else if (restart) {
            armTimer(nowNs);
        }
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

    /**
     * An RNR NAK: nothing is sent before {@code nowNs} plus the delay its timer code names. The ACK
     * timer stops meanwhile: the responder answered, so nothing is lost, and a wait longer than the
     * timeout (code 0 asks for 655 ms) must not spend retries; the requester arms it again when it
     * resends (Linux's hfi1 and qib drivers do the same in do_rc_ack: rvt_stop_rc_timers, then
     * rvt_add_rnr_timer).
     */
    void waitForRnr(long nowNs, int timerCode) {
        timerArmed = false;
        rnrWaiting = true;
        rnrResumeNs = nowNs + Timers.rnrDelayNs(timerCode);
        timerFloor.note(rnrResumeNs);
    }

    /** Where a retransmission of {@code w} starts. */
    int firstUnackedPsn(SendWqe w) {
        if (w.opcode == WrOpcode.RDMA_READ) {
            return Psn.add(w.firstPsn, w.readPacketsDone);
        }
        if (w.opcode.isAtomic()) {
            return w.firstPsn;
        }
        int next = Psn.next(ackedPsn);
        return Psn.compare(next, w.firstPsn) > 0 ? next : w.firstPsn;
    }

    /** Waits for the device's budget with nothing of its own in flight: nothing to time out. */
    boolean blockedOnBudget() {
        return budget.isWaiting(qp) && inFlight() == 0 && outstandingReadAtomic == 0;
    }

    /** RC packets (READ response PSNs included) charged to the budget and not yet acknowledged. */
    int inFlight() {
        int d = Psn.diff(budgetedPsn, ackedPsn);
        return d > 0 ? d : 0;
    }

    /** True when {@code psn} is not yet charged: sending it needs the device's budget. */
    boolean needsBudget(int psn) {
        return qp.type == QpType.RC && Psn.compare(psn, budgetedPsn) > 0;
    }

    /** Packets up to {@code lastPsn} were sent: what was not charged yet is charged now. */
    void charge(int lastPsn) {
        if (qp.type == QpType.RC && Psn.compare(lastPsn, budgetedPsn) > 0) {
            int before = inFlight();
            budgetedPsn = lastPsn;
            budget.add(inFlight() - before);
        }
    }

    /** The acknowledged PSN moves to {@code psn}: what it covers leaves the device's budget. */
    void acknowledgedTo(int psn) {
        int before = inFlight();
        ackedPsn = psn;
        if (qp.type == QpType.RC) {
            budget.add(inFlight() - before);
        }
    }

    /**
     * Returns everything in flight to the device's budget (reset, flush, destroy), and takes the QP
     * out of its queue first: giving the packets back must not wake this QP, and a QP that will not
     * send must not hold a place or a wake there.
     */
    void releaseBudget() {
        budget.remove(qp);
        if (qp.type == QpType.RC) {
            budget.add(-inFlight());
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
            budget.add(inFlight() - before);
        }
    }
}
