package io.jroce.rnic.core;

import io.jroce.verbs.QpState;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.spi.CompletionWriter;

/**
 * One QP's transport: its {@link QpContext} and its three engines, which are peers: the
 * {@link Requester} transmits, the {@link Completer} takes responses and retires send WQEs, both
 * through the QP's {@link SendQueueState}; the {@link Responder} owns the receive side's state
 * (expected PSN, MSN, the message in progress). The engine dispatches to it; the QP's verbs face
 * resets and queries it. I/O thread only, except {@link #scheduled}.
 */
final class QpTransport implements QpErrors {
    /** Fills the completions this class generates (their fields are read-only to applications). */
    private static final CompletionWriter WC = CompletionWriter.get();
    final QpContext qp;
    final SendQueueState sendState;
    final Completer completer;
    final Requester requester;
    final Responder responder;
    /** Set while the QP waits in the engine's run queue. Any thread. */
    final java.util.concurrent.atomic.AtomicBoolean scheduled = new java.util.concurrent.atomic.AtomicBoolean();
    /** Raises QP_FATAL for the QP (the device's asynchronous event). */
    private final Runnable fatalError;

    QpTransport(RnicContext ctx, QpContext qp, Runnable fatalError) {
        this.qp = qp;
        this.fatalError = fatalError;
        this.sendState = new SendQueueState(qp, ctx.budget, ctx.events, ctx.timerFloor);
        this.completer = new Completer(ctx, qp, sendState, this);
        this.requester = new Requester(ctx, qp, sendState, completer);
        this.responder = new Responder(ctx, qp, this);
    }

    /**
     * Completes every outstanding work request with WR_FLUSH_ERR (IBTA 10.3.1, Error state). The
     * WQEs of a shared receive queue stay for the other QPs, but for the one a message in progress took.
     */
    void flush() {
        requester.flush();
        WorkQueueRing<RecvWqe> rq = qp.rq;
        while (!rq.isEmpty()) {
            long wrId = rq.at(rq.head()).wrId;
            rq.pop(); // before the completion is visible: a poller may post into the freed slot at once
            WorkCompletion wc = qp.recvCq.claim();
            if (wc != null) {
                WC.set(wc, wrId, WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, false, 0, qp.qpn, 0, 0);
                qp.recvCq.publish(false);
            }
        }
        responder.flushSrqWqe();
        responder.abort();
    }

    /** Moves to ERR from inside the protocol (a fatal completion or a NAK of class 2). */
    @Override
    public void enterError() {
        qp.state = QpState.ERR;
        flush();
        fatalError.run();
    }
}
