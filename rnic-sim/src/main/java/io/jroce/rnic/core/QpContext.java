package io.jroce.rnic.core;

import io.jroce.verbs.AddressVector;
import io.jroce.verbs.Gid;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QpType;

/**
 * What the protocol engines know of one QP: its identity, its queues and completion sinks, and the
 * attributes Modify QP set. Owned by the I/O thread: the QP's verbs face writes the attributes
 * there (so the engines never see a half-modified QP) and reads {@link #state} from any thread.
 * It refers to no resource class, so the engines can be built with a plain instance in tests.
 */
final class QpContext {
    final int qpn;
    final QpType type;
    /** Identity of the QP's protection domain, compared with a region's or window's. */
    final ProtectionDomain pd;
    final WorkQueueRing<SendWqe> sq;
    /** The QP's own receive queue (flushed with the QP); unused with an SRQ. */
    final WorkQueueRing<RecvWqe> rq;
    /** The shared receive queue the QP draws from, or null for {@link #rq}. */
    final ReceiveQueue srq;
    final CompletionSink sendCq;
    final CompletionSink recvCq;

    volatile QpState state = QpState.RESET;

    // Attributes (written on the I/O thread by Modify QP).
    int accessFlags;
    int qkey;
    /** The path to the peer (connected QPs), or null before RTR. */
    AddressVector av;
    final byte[] sgid = new byte[Gid.LENGTH];
    final byte[] dgid = new byte[Gid.LENGTH];
    int mtu = 256;
    int timeout;
    int retryCount;
    int rnrRetry;
    int maxRdAtomic;
    /** READs and atomics the responder answers at a time (max_dest_rd_atomic). */
    int maxDestRdAtomic;
    int minRnrTimer;
    int destQpn;
    /**
     * Set when a connected QP reaches RTR, cleared by the first packet it then takes: the moment of
     * the Communication Established event (IBTA 11.6.3.1). I/O thread.
     */
    boolean commEstablishedPending;
    /** Queued in the device's {@link TransmitBudget}, which alone sets and clears it. I/O thread. */
    boolean waitingForBudget;
    /** Woken by the device's {@link TransmitBudget}, its turn still to end; the budget alone sets and clears it. I/O thread. */
    boolean wokenByBudget;

    QpContext(int qpn, QpType type, ProtectionDomain pd, WorkQueueRing<SendWqe> sq, WorkQueueRing<RecvWqe> rq,
              ReceiveQueue srq, CompletionSink sendCq, CompletionSink recvCq) {
        this.qpn = qpn;
        this.type = type;
        this.pd = pd;
        this.sq = sq;
        this.rq = rq;
        this.srq = srq;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
    }

    /** The receive WQE the next message goes to (own queue or SRQ), or null when none is posted. */
    RecvWqe recvHead() {
        if (srq != null) {
            return srq.head();
        }
        return rq.isEmpty() ? null : rq.at(rq.head());
    }

    /**
     * Takes the receive WQE a new message goes to, or null when none is posted. An SRQ's head is
     * copied into {@code srqCopy} and taken off the SRQ at once, so that no other QP's message can
     * take it while this one is in progress (as rxe's get_srq_wqe); the QP's own queue keeps it at
     * its head until {@link #retireRecv()}.
     */
    RecvWqe takeRecv(RecvWqe srqCopy) {
        if (srq == null) {
            return rq.isEmpty() ? null : rq.at(rq.head());
        }
        RecvWqe head = srq.head();
        if (head == null) {
            return null;
        }
        srqCopy.copyFrom(head);
        srq.pop();
        return srqCopy;
    }

    /** The message that {@link #takeRecv} served completed: its WQE leaves the QP's own queue (an SRQ's already left). */
    void retireRecv() {
        if (srq == null) {
            rq.pop();
        }
    }

    /** Retires the WQE {@link #recvHead()} returned. */
    void consumeRecv() {
        if (srq != null) {
            srq.pop();
        } else {
            rq.pop();
        }
    }

    /** Whether the QP's access flags grant every bit of {@code remoteAccess}. */
    boolean allows(int remoteAccess) {
        return (accessFlags & remoteAccess) == remoteAccess;
    }

    /** The peer's UDP port (connected QPs, from RTR on). */
    int udpPort() {
        return av.udpPort();
    }

    @Override
    public String toString() {
        return "qp{0x" + Integer.toHexString(qpn) + " " + type + " " + state + "}";
    }
}
