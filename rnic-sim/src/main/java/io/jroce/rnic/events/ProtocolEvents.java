package io.jroce.rnic.events;

import io.jroce.stack.stats.Counter;
import io.jroce.stack.stats.DropListener;
import io.jroce.verbs.QpState;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/**
 * Listens to one device's protocol engines. Every method has an empty default, so a listener
 * overrides what it wants. Called on the device's I/O thread (in the invoker progress mode, the
 * thread that owns the device); {@link #dropped} on whichever thread counted the drop. A listener
 * returns quickly, calls no verbs, and allocates nothing when it is not interested: a flood of bad
 * packets reaches {@link #dropped} once each.
 */
public interface ProtocolEvents extends DropListener {
    /** Hears nothing. */
    ProtocolEvents NONE = new ProtocolEvents() {
    };

    /**
     * The default: SLF4J debug lines under {@code io.jroce.rnic.protocol}, prefixed with {@code deviceName}.
     *
     * @param deviceName the device's name, which starts each line
     * @return a listener that logs
     */
    static ProtocolEvents logging(String deviceName) {
        return new LoggingProtocolEvents(deviceName);
    }

    /**
     * QP {@code qpn} moved from {@code from} to {@code to}: a Modify QP, or the protocol's error (IBTA 10.3.1).
     *
     * @param qpn  the QP's number
     * @param from the state it left
     * @param to   the state it entered
     */
    default void qpStateChanged(int qpn, QpState from, QpState to) {
    }

    /**
     * QP {@code qpn}'s responder sent a NAK or an RNR NAK for {@code psn}.
     *
     * @param qpn      the QP's number
     * @param psn      the PSN the NAK names
     * @param syndrome the AETH's syndrome byte ({@code AethSyndrome.describe} words it)
     */
    default void nakSent(int qpn, int psn, int syndrome) {
    }

    /**
     * QP {@code qpn}'s requester received a NAK or an RNR NAK for {@code psn}.
     *
     * @param qpn      the QP's number
     * @param psn      the PSN the NAK names
     * @param syndrome the AETH's syndrome byte ({@code AethSyndrome.describe} words it)
     */
    default void nakReceived(int qpn, int psn, int syndrome) {
    }

    /**
     * QP {@code qpn}'s requester goes back to {@code fromPsn} because of {@code cause}: at once for
     * a NAK, a timeout or an implied NAK; for an RNR NAK when its wait is over ({@link #rnrTimerExpired}).
     *
     * @param qpn         the QP's number
     * @param fromPsn     the first PSN sent again
     * @param cause       why
     * @param retriesLeft the retries left after this one (retry_cnt, or rnr_retry for an RNR NAK; -1: without
     *                    end, rnr_retry 7)
     */
    default void retransmission(int qpn, int fromPsn, RetransmitCause cause, int retriesLeft) {
    }

    /**
     * QP {@code qpn}'s requester waits before sending {@code psn} again, after an RNR NAK.
     *
     * @param qpn     the QP's number
     * @param psn     the PSN it sends again
     * @param delayNs how long it waits, from the NAK's timer code (IBTA 9.7.5.2.8)
     */
    default void rnrWait(int qpn, int psn, long delayNs) {
    }

    /**
     * QP {@code qpn}'s requester waited out an RNR NAK's timer (IBTA 9.7.5.2.8) and sends again:
     * the {@link #retransmission} with cause {@link RetransmitCause#RNR_NAK} follows at once.
     *
     * @param qpn the QP
     */
    default void rnrTimerExpired(int qpn) {
    }

    /**
     * QP {@code qpn}'s requester heard an answer that acknowledged more of what it sent.
     *
     * @param qpn the QP
     * @param nextPsn the PSN its next new request takes
     * @param oldestUnackedPsn the first PSN not acknowledged yet ({@code nextPsn} when none waits)
     */
    default void requesterPsnsUpdated(int qpn, int nextPsn, int oldestUnackedPsn) {
    }

    /**
     * QP {@code qpn}'s responder took a request packet that moved its expected PSN or its MSN.
     *
     * @param qpn the QP
     * @param expectedPsn the PSN it expects next
     * @param msn its message sequence number: the messages it has completed, modulo 2^24
     */
    default void responderPsnsUpdated(int qpn, int expectedPsn, int msn) {
    }

    /**
     * QP {@code qpn}'s transport timer (the local ACK timeout, IBTA 9.7.6.1.3) started, or started
     * again: a request waits for its ACK or response, and it restarts at each one that answers.
     *
     * @param qpn the QP
     * @param timeoutNs the time it runs, 4.096 us x 2^timeout
     */
    default void ackTimerSet(int qpn, long timeoutNs) {
    }

    /**
     * QP {@code qpn}'s transport timer ran out with requests still unanswered: a retry follows
     * ({@link #retransmission}), or with none left the QP fails with RETRY_EXC_ERR.
     *
     * @param qpn the QP
     * @param retriesLeft the retries left before this one is taken
     */
    default void ackTimerExpired(int qpn, int retriesLeft) {
    }

    /**
     * A work request entered QP {@code qpn}'s send queue, every check passed, before the RNIC may
     * start it. Called on the posting thread, in the queue's order.
     *
     * @param qpn the QP
     * @param wrId the request's wr_id
     * @param opcode its opcode
     * @param length the bytes of its scatter/gather list (or inline data)
     * @param signaled whether it asks for a completion (or the QP signals all)
     */
    default void sendPosted(int qpn, long wrId, WrOpcode opcode, long length, boolean signaled) {
    }

    /**
     * A work request entered a receive queue: QP {@code qpn}'s, or with {@code qpn} -1 a shared
     * receive queue's. Called on the posting thread, in the queue's order.
     *
     * @param qpn the QP, or -1 for an SRQ
     * @param wrId the request's wr_id
     * @param length the bytes its scatter/gather list can take
     */
    default void receivePosted(int qpn, long wrId, long length) {
    }

    /**
     * A completion entered a CQ, before any poller can see it: a work request of QP
     * {@code wc.qpNum()} ended, as its poller will be told. {@code wc} is the CQ's own entry: read
     * it during the call, keep nothing.
     *
     * @param wc the completion
     */
    default void completionGenerated(WorkCompletion wc) {
    }

    @Override
    default void dropped(Counter reason, long count) {
    }
}
