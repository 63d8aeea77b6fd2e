package io.jroce.rnic.core;

import java.util.ArrayList;
import java.util.List;

import io.jroce.rnic.events.ProtocolEvents;
import io.jroce.rnic.events.RetransmitCause;
import io.jroce.stack.stats.Counter;
import io.jroce.stack.wire.AethSyndrome;
import io.jroce.verbs.QpState;

/** Records every protocol event as one line of text, for tests to compare. */
final class RecordingProtocolEvents implements ProtocolEvents {
    final List<String> lines = new ArrayList<>();

    @Override
    public void qpStateChanged(int qpn, QpState from, QpState to) {
        lines.add(String.format("qp 0x%x %s -> %s", qpn, from, to));
    }

    @Override
    public void nakSent(int qpn, int psn, int syndrome) {
        lines.add(String.format("qp 0x%x sent %s psn 0x%x", qpn, AethSyndrome.describe(syndrome), psn));
    }

    @Override
    public void nakReceived(int qpn, int psn, int syndrome) {
        lines.add(String.format("qp 0x%x received %s psn 0x%x", qpn, AethSyndrome.describe(syndrome), psn));
    }

    @Override
    public void retransmission(int qpn, int fromPsn, RetransmitCause cause, int retriesLeft) {
        lines.add(String.format("qp 0x%x retransmits from psn 0x%x after %s, %d left", qpn, fromPsn, cause.words(),
            retriesLeft));
    }

    @Override
    public void rnrWait(int qpn, int psn, long delayNs) {
        lines.add(String.format("qp 0x%x waits %d ns for psn 0x%x", qpn, delayNs, psn));
    }

    @Override
    public void rnrTimerExpired(int qpn) {
        lines.add(String.format("qp 0x%x rnr timer expired", qpn));
    }

    @Override
    public void dropped(Counter reason, long count) {
        lines.add("dropped " + count + " " + reason.counterName());
    }
}
