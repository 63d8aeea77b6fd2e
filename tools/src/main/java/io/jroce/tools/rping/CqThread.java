package io.jroce.tools.rping;

import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import java.util.concurrent.TimeUnit;

/**
 * rping's cq_thread: sleeps on the completion channel, re-arms the CQ, polls it empty and turns
 * each completion into a state for the waiting thread ({@code rping_cq_event_handler}). It ends at
 * the first flushed completion (the QP went to ERR: the connection is over) or at an error.
 */
final class CqThread extends Thread {
    private static final long SLICE_MS = 200;

    private final ControlBlock cb;
    private final Connection conn;
    private final WorkCompletion wc = new WorkCompletion();

    CqThread(ControlBlock cb, Connection conn) {
        super("rping-cq");
        setDaemon(true);
        this.cb = cb;
        this.conn = conn;
    }

    @Override
    public void run() {
        cb.log.debug("cq_thread started.");
        try {
            while (true) {
                CompletionQueue fired = conn.channel.getEvent(SLICE_MS, TimeUnit.MILLISECONDS);
                if (fired == null) {
                    continue;
                }
                if (fired != conn.cq) {
                    cb.log.err("Unknown CQ!");
                    return;
                }
                int ret;
                try {
                    try {
                        conn.cq.requestNotification(false);
                    } catch (VerbsException e) {
                        cb.log.err("Failed to set notify!");
                        return;
                    }
                    ret = handleCompletions();
                } finally {
                    // Whatever happened above: an event taken and never acknowledged keeps the CQ,
                    // its channel, the QP's PD and so the device from ever closing.
                    conn.cq.ackEvents(1);
                }
                if (ret != 0) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            // pthread_cancel
        } catch (VerbsException e) {
            cb.log.err("Failed to get cq event!");
        } catch (RuntimeException e) {
            // A connection torn down under the thread (its buffers freed): end as rping's thread
            // would be cancelled, but say so rather than die with a trace on the run's stderr.
            cb.log.debug("cq_thread ended: " + e);
        }
    }

    /** rping_cq_event_handler: 0 to go on, 1 after a flush, -1 after an error (state ERROR posted). */
    private int handleCompletions() {
        boolean flushed = false;
        while (conn.cq.poll(wc)) {
            if (wc.status() != WcStatus.SUCCESS) {
                if (wc.status() == WcStatus.WR_FLUSH_ERR) {
                    flushed = true;
                    continue;
                }
                cb.log.err("cq completion failed status " + wc.status().code());
                return error();
            }
            switch (wc.opcode()) {
                case SEND -> cb.log.debug("send completion");
                case RDMA_WRITE -> {
                    cb.log.debug("rdma write completion");
                    cb.post(TestState.RDMA_WRITE_COMPLETE);
                }
                case RDMA_READ -> {
                    cb.log.debug("rdma read completion");
                    cb.post(TestState.RDMA_READ_COMPLETE);
                }
                case RECV -> {
                    cb.log.debug("recv completion");
                    if ((cb.server ? serverRecv() : clientRecv()) != 0) {
                        cb.log.err("recv wc error: -1");
                        return error();
                    }
                    try {
                        conn.postRecv();
                    } catch (VerbsException e) {
                        cb.log.err("post recv error: " + Errno.of(e));
                        return error();
                    }
                    cb.post();
                }
                default -> {
                    cb.log.debug("unknown!!!!! completion");
                    return error();
                }
            }
        }
        return flushed ? 1 : 0;
    }

    private int error() {
        cb.post(TestState.ERROR);
        return -1;
    }

    /** server_recv: the client's buffer, to READ from (first message of a ping) or WRITE to (second). */
    private int serverRecv() {
        if (wc.byteLen() != RdmaInfo.LENGTH) {
            cb.log.err("Received bogus data, size " + wc.byteLen());
            return -1;
        }
        RdmaInfo info = RdmaInfo.readFrom(conn.recvMr.buffer());
        cb.remoteRkey = info.rkey();
        cb.remoteAddr = info.buf();
        cb.remoteLen = info.size();
        cb.log.debug(String.format("Received rkey %x addr %x len %d from peer", info.rkey(), info.buf(), info.size()));
        TestState s = cb.state;
        cb.moveTo(s.value() <= TestState.CONNECTED.value() || s == TestState.RDMA_WRITE_COMPLETE
            ? TestState.RDMA_READ_ADV : TestState.RDMA_WRITE_ADV);
        return 0;
    }

    /** client_recv: the server's go-ahead after its READ, then after its WRITE. */
    private int clientRecv() {
        if (wc.byteLen() != RdmaInfo.LENGTH) {
            cb.log.err("Received bogus data, size " + wc.byteLen());
            return -1;
        }
        cb.moveTo(cb.state == TestState.RDMA_READ_ADV ? TestState.RDMA_WRITE_ADV : TestState.RDMA_WRITE_COMPLETE);
        return 0;
    }
}
