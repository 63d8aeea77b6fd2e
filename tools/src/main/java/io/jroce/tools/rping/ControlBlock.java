package io.jroce.tools.rping;

import io.jroce.verbs.cm.ConnParam;
import io.jroce.verbs.cm.RdmaCmId;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;

/**
 * rping's {@code struct rping_cb} as far as its threads share it: the state the CM and CQ threads
 * set and post to the semaphore the main (or connection) thread waits on, the peer's buffer from
 * the last message, and the IDs. One per connection; a persistent server's listener has its own.
 */
final class ControlBlock {
    final boolean server;
    final RpingOptions options;
    final RpingLog log;
    /** The client's ID, or the server's listener (rping's cm_id: "parent" in its debug lines). */
    final RdmaCmId cmId;
    private final Semaphore sem = new Semaphore(0);
    /** rping's accept_ready: a CONNECT_REQUEST waits until the previous one was taken. */
    final Semaphore acceptReady = new Semaphore(1);
    volatile TestState state = TestState.IDLE;
    /** The server's connection (rping's child_cm_id). */
    volatile RdmaCmId childCmId;
    /** The peer's values in the CONNECT_REQUEST, which rdma_accept without parameters takes. */
    volatile ConnParam requestParam;
    /** Counted down by the DISCONNECTED event. */
    final CountDownLatch disconnected = new CountDownLatch(1);
    /** The resources of the connection, once made. */
    volatile Connection connection;
    volatile int remoteRkey;
    volatile long remoteAddr;
    volatile int remoteLen;

    ControlBlock(boolean server, RpingOptions options, RpingLog log, RdmaCmId cmId) {
        this.server = server;
        this.options = options;
        this.log = log;
        this.cmId = cmId;
    }

    /** clone_cb: a persistent server's block for the connection that just came, sharing the listener's ID. */
    ControlBlock cloneFor(RdmaCmId child) {
        ControlBlock cb = new ControlBlock(server, options, log, cmId);
        cb.childCmId = child;
        cb.requestParam = requestParam;
        cb.state = state;
        return cb;
    }

    /** sem_post. */
    void post() {
        sem.release();
    }

    /** sem_wait. */
    void await() throws InterruptedException {
        sem.acquire();
    }

    /** sem_post with a new state ({@link #moveTo}). */
    void post(TestState next) {
        moveTo(next);
        sem.release();
    }

    /**
     * The state becomes {@code next}, unless the connection has ended (DISCONNECTED, ERROR) and
     * {@code next} is a step of a ping: a completion that lost the race with the CM thread's
     * DISCONNECTED (its READ answered just before the peer's DREQ) does not take it back. rping's
     * CQ thread would, and fail the server with -1 where its client was merely stopped.
     */
    void moveTo(TestState next) {
        TestState now = state;
        boolean ended = now == TestState.DISCONNECTED || now == TestState.ERROR;
        if (!ended || next == TestState.DISCONNECTED || next == TestState.ERROR) {
            state = next;
        }
    }
}
