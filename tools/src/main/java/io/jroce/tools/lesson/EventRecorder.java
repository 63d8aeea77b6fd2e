package io.jroce.tools.lesson;

import io.jroce.rnic.events.ProtocolEvents;
import io.jroce.rnic.events.RetransmitCause;
import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.verbs.QpState;
import java.util.List;

/**
 * One device's protocol events, kept with the fabric's virtual time once the lesson's script
 * starts (the Modify QPs of the setup are not part of the lesson).
 */
final class EventRecorder implements ProtocolEvents {
    private final SimulatedFabric fabric;
    private final boolean atA;
    private final List<QpEvent> events;
    private boolean recording;

    EventRecorder(SimulatedFabric fabric, boolean atA, List<QpEvent> events) {
        this.fabric = fabric;
        this.atA = atA;
        this.events = events;
    }

    void start() {
        recording = true;
    }

    @Override
    public void qpStateChanged(int qpn, QpState from, QpState to) {
        if (recording) {
            events.add(new QpEvent.StateChanged(fabric.nowNs(), atA, from, to));
        }
    }

    @Override
    public void retransmission(int qpn, int fromPsn, RetransmitCause cause, int retriesLeft) {
        if (recording) {
            events.add(new QpEvent.Retransmission(fabric.nowNs(), atA, fromPsn, cause, retriesLeft));
        }
    }

    @Override
    public void rnrWait(int qpn, int psn, long delayNs) {
        if (recording) {
            events.add(new QpEvent.RnrWait(fabric.nowNs(), atA, psn, delayNs));
        }
    }
}
