package io.jroce.tools.rping;

import io.jroce.verbs.DeviceAttributes;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.WrOpcode;
import io.jroce.verbs.cm.ConnParam;
import io.jroce.verbs.cm.RdmaCmId;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * rping's server side: bind and listen, then for the connection (or with -P for each, on a
 * thread of its own) accept, and per ping RDMA READ the client's buffer, send the go-ahead,
 * RDMA WRITE it back into the client's sink and send the go-ahead again, until the client
 * disconnects.
 */
final class RpingServer {
    private final RpingRun run;
    private final ControlBlock listening;
    /** A persistent server's connection threads. */
    private final List<Thread> connections = new CopyOnWriteArrayList<>();
    /** Every connection's block, to free what a connection's own teardown could not. */
    private final List<ControlBlock> served = new CopyOnWriteArrayList<>();

    RpingServer(RpingRun run, ControlBlock listening) {
        this.run = run;
        this.listening = listening;
    }

    /**
     * Stops a persistent server's connections when the run ends (rping's end with its process):
     * each thread is interrupted and tears its connection down.
     */
    void stopConnections() {
        for (Thread t : connections) {
            t.interrupt();
            RpingRun.joinUninterruptibly(t, RpingRun.TEARDOWN_MS);
        }
    }

    /**
     * Frees again what each connection made (closing what is closed already does nothing): a
     * connection whose teardown ran out of time, or whose thread had not ended when the run
     * stopped, leaves its QP, CQ and PD behind, and they would keep the device from closing.
     * Called after {@link CmThread#shutdown()}, when no event is held unacknowledged any more.
     */
    void releaseLeftovers() {
        for (ControlBlock cb : served) {
            if (cb.childCmId != null) {
                try {
                    cb.childCmId.close();
                } catch (RuntimeException e) {
                    cb.log.debug("rdma_destroy_id: " + e.getMessage()); // destroyed already, or still busy
                }
            }
            Connection conn = cb.connection;
            if (conn != null) {
                conn.closeRemaining();
            }
        }
    }

    /** rping_bind_server. */
    private int bindServer(InetSocketAddress address) {
        try {
            listening.cmId.bindAddr(address);
        } catch (VerbsException e) {
            listening.log.err("rdma_bind_addr: " + e.getMessage());
            return -1;
        }
        listening.log.debug("rdma_bind_addr successful");
        listening.log.debug("rdma_listen");
        try {
            listening.cmId.listen(3);
        } catch (VerbsException e) {
            listening.log.err("rdma_listen: " + e.getMessage());
            return -1;
        }
        return 0;
    }

    /** rping_run_server: one connection. */
    int run(InetSocketAddress address) throws InterruptedException {
        ControlBlock cb = listening;
        int ret = bindServer(address);
        if (ret != 0) {
            return ret;
        }
        cb.await();
        if (cb.state != TestState.CONNECT_REQUEST) {
            cb.log.err("wait for CONNECT_REQUEST state " + cb.state.value());
            return -1;
        }
        served.add(cb);
        return serve(cb, false);
    }

    /** rping_run_persistent_server: each connection on its own thread, until the process is stopped. */
    int runPersistent(InetSocketAddress address) throws InterruptedException {
        int ret = bindServer(address);
        if (ret != 0) {
            return ret;
        }
        while (true) {
            listening.await();
            if (listening.state != TestState.CONNECT_REQUEST) {
                listening.log.err("wait for CONNECT_REQUEST state " + listening.state.value());
                return -1;
            }
            ControlBlock cb = listening.cloneFor(listening.childCmId);
            served.add(cb);
            run.cmThread().context(cb.childCmId, cb);
            listening.acceptReady.release();
            Thread t = new Thread(() -> {
                try {
                    serve(cb, true);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "rping-server-" + RpingLog.pointer(cb));
            t.setDaemon(true);
            connections.add(t);
            t.start();
        }
    }

    /** The rest of rping_run_server, or rping_persistent_server_thread: one connection from accept to teardown. */
    private int serve(ControlBlock cb, boolean persistent) throws InterruptedException {
        RdmaCmId child = cb.childCmId;
        int setup = run.setupConnection(cb, child);
        if (setup != 0) {
            return setup;
        }
        boolean accepted = false;
        try {
            int ret = accept(cb);
            if (ret != 0) {
                cb.log.err("connect error " + ret);
                return ret;
            }
            accepted = true;
            ret = testServer(cb);
            if (ret != 0 && !persistent) {
                cb.log.err("rping server failed: " + ret);
            }
            return ret;
        } finally {
            run.teardown(cb, child, accepted, true);
        }
    }

    /** rping_accept: rdma_accept without parameters (the REQ's values, retry and RNR retry 7), then ESTABLISHED. */
    private int accept(ControlBlock cb) throws InterruptedException {
        cb.log.debug("accepting client connection request");
        DeviceAttributes caps = cb.childCmId.device().queryDevice();
        ConnParam theirs = cb.requestParam;
        ConnParam param = new ConnParam().responderResources(Math.min(theirs.responderResources(), caps.maxQpRdAtom()))
            .initiatorDepth(Math.min(theirs.initiatorDepth(), caps.maxQpInitRdAtom())).retryCount(7).rnrRetryCount(7);
        try {
            cb.childCmId.accept(param);
        } catch (VerbsException e) {
            cb.log.err("rdma_accept: " + e.getMessage());
            return -1;
        }
        cb.await();
        if (cb.state == TestState.ERROR) {
            cb.log.err("wait for CONNECTED state " + cb.state.value());
            return -1;
        }
        return 0;
    }

    /** rping_test_server: the ping loop; 0 when it ended because the client disconnected. */
    private int testServer(ControlBlock cb) throws InterruptedException {
        Connection conn = cb.connection;
        RpingLog log = cb.log;
        int ret;
        while (true) {
            cb.await();
            if (cb.state != TestState.RDMA_READ_ADV) {
                log.err("wait for RDMA_READ_ADV state " + cb.state.value());
                ret = -1;
                break;
            }
            log.debug("server received sink adv");
            if ((ret = post(cb, () -> conn.postRdma(WrOpcode.RDMA_READ, cb.remoteLen))) != 0) {
                break;
            }
            log.debug("server posted rdma read req ");
            cb.await();
            if (cb.state != TestState.RDMA_READ_COMPLETE) {
                log.err("wait for RDMA_READ_COMPLETE state " + cb.state.value());
                ret = -1;
                break;
            }
            log.debug("server received read complete");
            if (cb.options.verbose()) {
                log.out("server ping data: " + PingPattern.cString(conn.rdmaMr.buffer(), cb.options.size()));
            }
            if ((ret = post(cb, conn::postSend)) != 0) {
                break;
            }
            log.debug("server posted go ahead");
            cb.await();
            if (cb.state != TestState.RDMA_WRITE_ADV) {
                log.err("wait for RDMA_WRITE_ADV state " + cb.state.value());
                ret = -1;
                break;
            }
            log.debug("server received sink adv");
            // strlen + 1: the ping's C string and its NUL, within the buffer
            int length = Math.min(PingPattern.strlen(conn.rdmaMr.buffer(), cb.options.size()) + 1, cb.options.size());
            log.debug(String.format("rdma write from lkey %x laddr %x len %d", conn.rdmaMr.lkey(),
                conn.rdmaMr.address(), length));
            if ((ret = post(cb, () -> conn.postRdma(WrOpcode.RDMA_WRITE, length))) != 0) {
                break;
            }
            cb.await();
            if (cb.state != TestState.RDMA_WRITE_COMPLETE) {
                log.err("wait for RDMA_WRITE_COMPLETE state " + cb.state.value());
                ret = -1;
                break;
            }
            log.debug("server rdma write complete ");
            if ((ret = post(cb, conn::postSend)) != 0) {
                break;
            }
            log.debug("server posted go ahead");
        }
        return cb.state == TestState.DISCONNECTED ? 0 : ret;
    }

    /** ibv_post_send with rping's complaint: 0, or the errno. */
    static int post(ControlBlock cb, Runnable posting) {
        try {
            posting.run();
            return 0;
        } catch (VerbsException e) {
            cb.log.err("post send error " + Errno.of(e));
            return Errno.of(e);
        }
    }
}
