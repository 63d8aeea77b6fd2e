package io.jroce.rnic.events;

import io.jroce.stack.stats.Counter;
import io.jroce.verbs.QpState;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/** Protocol events written to an {@link EventLog} and passed on to the listener they replace. */
public final class EventLogProtocolEvents implements ProtocolEvents {
    private final EventLog log;
    private final ProtocolEvents next;

    /**
     * Logs to {@code log}, then calls {@code next}.
     *
     * @param log the event log
     * @param next the listener that still hears every event
     */
    public EventLogProtocolEvents(EventLog log, ProtocolEvents next) {
        this.log = log;
        this.next = next;
    }

    @Override
    public void qpStateChanged(int qpn, QpState from, QpState to) {
        log.qpStateChanged(qpn, from, to);
        next.qpStateChanged(qpn, from, to);
    }

    @Override
    public void nakSent(int qpn, int psn, int syndrome) {
        log.nak(true, qpn, psn, syndrome);
        next.nakSent(qpn, psn, syndrome);
    }

    @Override
    public void nakReceived(int qpn, int psn, int syndrome) {
        log.nak(false, qpn, psn, syndrome);
        next.nakReceived(qpn, psn, syndrome);
    }

    @Override
    public void retransmission(int qpn, int fromPsn, RetransmitCause cause, int retriesLeft) {
        log.retry(qpn, fromPsn, cause, retriesLeft);
        next.retransmission(qpn, fromPsn, cause, retriesLeft);
    }

    @Override
    public void rnrWait(int qpn, int psn, long delayNs) {
        log.rnrWait(qpn, psn, delayNs);
        log.timerSet(qpn, EventLog.RNR_TIMER, delayNs);
        next.rnrWait(qpn, psn, delayNs);
    }

    @Override
    public void rnrTimerExpired(int qpn) {
        log.timerExpired(qpn, EventLog.RNR_TIMER, -1);
        next.rnrTimerExpired(qpn);
    }

    @Override
    public void requesterPsnsUpdated(int qpn, int nextPsn, int oldestUnackedPsn) {
        log.psnState(qpn, "requester", "next_psn", nextPsn, "oldest_unacked_psn", oldestUnackedPsn);
        next.requesterPsnsUpdated(qpn, nextPsn, oldestUnackedPsn);
    }

    @Override
    public void responderPsnsUpdated(int qpn, int expectedPsn, int msn) {
        log.psnState(qpn, "responder", "expected_psn", expectedPsn, "msn", msn);
        next.responderPsnsUpdated(qpn, expectedPsn, msn);
    }

    @Override
    public void ackTimerSet(int qpn, long timeoutNs) {
        log.timerSet(qpn, EventLog.ACK_TIMER, timeoutNs);
        next.ackTimerSet(qpn, timeoutNs);
    }

    @Override
    public void ackTimerExpired(int qpn, int retriesLeft) {
        log.timerExpired(qpn, EventLog.ACK_TIMER, retriesLeft);
        next.ackTimerExpired(qpn, retriesLeft);
    }

    @Override
    public void sendPosted(int qpn, long wrId, WrOpcode opcode, long length, boolean signaled) {
        log.sendPosted(qpn, wrId, opcode, length, signaled);
        next.sendPosted(qpn, wrId, opcode, length, signaled);
    }

    @Override
    public void receivePosted(int qpn, long wrId, long length) {
        log.receivePosted(qpn, wrId, length);
        next.receivePosted(qpn, wrId, length);
    }

    @Override
    public void completionGenerated(WorkCompletion wc) {
        log.completion(wc);
        next.completionGenerated(wc);
    }

    @Override
    public void dropped(Counter reason, long count) {
        log.dropped(reason, count);
        next.dropped(reason, count);
    }
}
