package io.jroce.rnic.events;

import io.jroce.stack.stats.Counter;
import io.jroce.stack.stats.DropListener;
import io.jroce.verbs.QpState;

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

    /** The default: SLF4J debug lines under {@code io.jroce.rnic.protocol}, prefixed with {@code deviceName}. */
    static ProtocolEvents logging(String deviceName) {
        return new LoggingProtocolEvents(deviceName);
    }

    /** QP {@code qpn} moved from {@code from} to {@code to}: a Modify QP, or the protocol's error (IBTA 10.3.1). */
    default void qpStateChanged(int qpn, QpState from, QpState to) {
    }

    /** QP {@code qpn}'s responder sent a NAK or an RNR NAK for {@code psn}; {@code syndrome} is the AETH's. */
    default void nakSent(int qpn, int psn, int syndrome) {
    }

    /** QP {@code qpn}'s requester received a NAK or an RNR NAK for {@code psn}; {@code syndrome} is the AETH's. */
    default void nakReceived(int qpn, int psn, int syndrome) {
    }

    /**
     * QP {@code qpn}'s requester goes back to {@code fromPsn} because of {@code cause}, with
     * {@code retriesLeft} of its retry count left after this one (-1: RNR retries without end, rnr_retry 7).
     */
    default void retransmission(int qpn, int fromPsn, RetransmitCause cause, int retriesLeft) {
    }

    /** QP {@code qpn}'s requester waits {@code delayNs} before sending {@code psn} again, after an RNR NAK. */
    default void rnrWait(int qpn, int psn, long delayNs) {
    }

    @Override
    default void dropped(Counter reason, long count) {
    }
}
