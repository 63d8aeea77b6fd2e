package io.jroce.rnic.core;

import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.Arguments;
import io.jroce.verbs.AsyncEvent;
import io.jroce.verbs.AsyncEventType;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QueueFullException;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ResourceLimitException;
import io.jroce.verbs.SharedReceiveQueue;

/**
 * A shared receive queue: one ring of receive WQEs that every QP attached to it consumes on the
 * I/O thread, in posting order. The limit event fires once when the ring runs low (IBTA 10.2.9.3).
 */
final class SoftSrq implements SharedReceiveQueue, ReceiveQueue {
    final SoftPd pd;
    final WorkQueueRing<RecvWqe> ring;
    private final int maxSge;
    private final ResourceUsers users = new ResourceUsers("shared receive queue is destroyed");
    private volatile int limit;
    /** What its ring was charged to the device's {@link MemoryBudget}, refunded when it is destroyed. */
    private final long footprint;

    SoftSrq(SoftPd pd, int maxWr, int maxSge) {
        if (maxWr < 1 || maxWr > DeviceLimits.MAX_QP_WR) {
            throw new ResourceLimitException("SRQ max_wr must be 1.." + DeviceLimits.MAX_QP_WR + ", got " + maxWr);
        }
        if (maxSge < 0 || maxSge > DeviceLimits.MAX_SGE) {
            throw new ResourceLimitException("SRQ max_sge must be 0.." + DeviceLimits.MAX_SGE + ", got " + maxSge);
        }
        this.pd = pd;
        this.maxSge = maxSge;
        int sges = Math.max(1, maxSge);
        this.footprint = QueueFootprint.srq(maxWr, sges);
        pd.softDevice().memory().charge(footprint, "an SRQ of max_wr=" + maxWr + ", max_sge=" + maxSge);
        this.ring = new WorkQueueRing<>(maxWr, () -> new RecvWqe(sges));
    }

    @Override
    public void postRecv(ReceiveWorkRequest wr) {
        ensureOpen();
        Arguments.notNull(wr, "receive work request");
        if (wr.numSge() > maxSge) {
            throw new InvalidAttributeException("receive work request has " + wr.numSge() + " SGEs, the SRQ's max_sge is " + maxSge);
        }
        synchronized (this) {
            RecvWqe wqe = ring.claim();
            if (wqe == null) {
                throw new QueueFullException("shared receive queue is full (" + ring.capacity() + " work requests)");
            }
            wqe.sg.load(wr, pd, pd.softDevice().keys(), AccessFlags.LOCAL_WRITE);
            wqe.wrId = wr.wrId();
            ring.publish();
            pd.softDevice().events().receivePosted(-1, wqe.wrId, wqe.sg.totalLength());
        }
    }

    /** Consumes the head WQE (I/O thread) and raises the limit event when the queue runs low. */
    @Override
    public RecvWqe head() {
        return ring.isEmpty() ? null : ring.at(ring.head());
    }

    @Override
    public void pop() {
        ring.pop();
        int armed = limit;
        if (armed > 0 && available() < armed) {
            limit = 0;
            pd.softDevice().raiseAsyncEvent(new AsyncEvent(AsyncEventType.SRQ_LIMIT_REACHED, this, 0));
        }
    }

    @Override
    public void armLimit(int srqLimit) {
        ensureOpen();
        if (srqLimit < 0 || srqLimit > ring.capacity()) {
            throw new InvalidAttributeException("srq_limit must be 0.." + ring.capacity() + ", got " + srqLimit);
        }
        limit = srqLimit;
    }

    @Override
    public int limit() {
        return limit;
    }

    @Override
    public int capacity() {
        return ring.capacity();
    }

    @Override
    public int available() {
        return (int) (ring.tail() - ring.head());
    }

    @Override
    public ProtectionDomain protectionDomain() {
        return pd;
    }

    /** A QP uses this SRQ. */
    void attach() {
        users.add();
    }

    void detach() {
        users.remove();
    }

    void ensureOpen() {
        users.ensureOpen();
    }

    @Override
    public synchronized void close() {
        if (!users.mayClose(n -> "shared receive queue is still used by " + n + " queue pair(s)")) {
            return;
        }
        users.markClosed();
        pd.softDevice().memory().refund(footprint);
        pd.srqDestroyed();
    }
}
