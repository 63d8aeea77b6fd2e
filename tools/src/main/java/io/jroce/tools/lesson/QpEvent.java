package io.jroce.tools.lesson;

import io.jroce.rnic.events.RetransmitCause;
import io.jroce.verbs.QpState;
import io.jroce.verbs.WcStatus;

/** Something a lesson's QP did that the packets alone do not say, at virtual time {@code timeNs()}. */
sealed interface QpEvent {
    long timeNs();

    /** Whether device A's QP did it. */
    boolean atA();

    /** The requester goes back to {@code fromPsn}. */
    record Retransmission(long timeNs, boolean atA, int fromPsn, RetransmitCause cause, int retriesLeft)
        implements QpEvent {
    }

    /** The requester waits {@code delayNs} after an RNR NAK before sending {@code psn} again. */
    record RnrWait(long timeNs, boolean atA, int psn, long delayNs) implements QpEvent {
    }

    /** The QP changed state by itself (the protocol's doing, not a Modify QP of the lesson's). */
    record StateChanged(long timeNs, boolean atA, QpState from, QpState to) implements QpEvent {
    }

    /** What a device's connection manager told its application. */
    record CmEvent(long timeNs, boolean atA, String text) implements QpEvent {
    }

    /** What the lesson's script saw in a device's memory once the run was over. */
    record Observation(long timeNs, boolean atA, String text) implements QpEvent {
    }

    /** A work completion the lesson polled. */
    record Completion(long timeNs, boolean atA, long wrId, String opcode, WcStatus status, int byteLen)
        implements QpEvent {
    }
}
