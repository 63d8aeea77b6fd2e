package io.jroce.tools.rping;

import io.jroce.verbs.VerbsException;
import io.jroce.verbs.cm.ConnParam;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * rping's client side: resolve the address and route, connect with rping's parameters, then per
 * ping fill the start buffer, SEND where it is, wait for the go-ahead, SEND where the sink is, wait
 * for the server's WRITE to be announced, and with -V compare the two buffers.
 */
final class RpingClient {
    /** rping_init_conn_param: one READ each way, 7 retries, 7 RNR retries (forever). */
    static ConnParam connParam() {
        return new ConnParam().responderResources(1).initiatorDepth(1).retryCount(7).rnrRetryCount(7);
    }

    private final RpingRun run;
    private final ControlBlock cb;

    RpingClient(RpingRun run, ControlBlock cb) {
        this.run = run;
        this.cb = cb;
    }

    /** rping_run_client. */
    int run(InetSocketAddress source, InetSocketAddress destination) throws InterruptedException {
        int ret = bindClient(source, destination);
        if (ret != 0) {
            return ret;
        }
        ret = run.setupConnection(cb, cb.cmId);
        if (ret != 0) {
            return ret;
        }
        Connection conn = cb.connection;
        boolean connected = false;
        try {
            ret = connect();
            if (ret != 0) {
                // rping then joins a CQ thread that never ends; its CM thread exits the process
                cb.log.err("connect error " + ret);
                return ret;
            }
            connected = true;
            ret = testClient(conn);
            if (ret != 0) {
                cb.log.err("rping client failed: " + ret);
            }
            return ret;
        } finally {
            run.teardown(cb, null, connected, false);
        }
    }

    /** rping_bind_client: rdma_resolve_addr, whose ADDR_RESOLVED the CM thread answers with rdma_resolve_route. */
    private int bindClient(InetSocketAddress source, InetSocketAddress destination) throws InterruptedException {
        try {
            cb.cmId.resolveAddr(source, destination, CmThread.RESOLVE_TIMEOUT_MS);
        } catch (VerbsException e) {
            cb.log.err("rdma_resolve_addr: " + e.getMessage());
            return -1;
        }
        cb.await();
        if (cb.state != TestState.ROUTE_RESOLVED) {
            cb.log.err("waiting for addr/route resolution state " + cb.state.value());
            return -1;
        }
        cb.log.debug("rdma_resolve_addr - rdma_resolve_route successful");
        return 0;
    }

    /** rping_connect_client. */
    private int connect() throws InterruptedException {
        try {
            cb.cmId.connect(connParam());
        } catch (VerbsException e) {
            cb.log.err("rdma_connect: " + e.getMessage());
            return -1;
        }
        cb.await();
        if (cb.state != TestState.CONNECTED) {
            cb.log.err("wait for CONNECTED state " + cb.state.value());
            return -1;
        }
        cb.log.debug("rdma_connect successful");
        return 0;
    }

    /** rping_test_client: -C pings (0: until something fails). */
    private int testClient(Connection conn) throws InterruptedException {
        RpingOptions o = cb.options;
        ByteBuffer start = conn.startMr.buffer();
        ByteBuffer sink = conn.rdmaMr.buffer();
        int ret = 0;
        for (int ping = 0; o.count() == 0 || ping < o.count(); ping++) {
            cb.state = TestState.RDMA_READ_ADV;
            PingPattern.fill(start, o.size(), ping);
            conn.formatSend(conn.startMr);
            if ((ret = RpingServer.post(cb, conn::postSend)) != 0) {
                break;
            }
            cb.await(); // the server READ it
            if (cb.state != TestState.RDMA_WRITE_ADV) {
                cb.log.err("wait for RDMA_WRITE_ADV state " + cb.state.value());
                ret = -1;
                break;
            }
            conn.formatSend(conn.rdmaMr);
            if ((ret = RpingServer.post(cb, conn::postSend)) != 0) {
                break;
            }
            cb.await(); // the server WROTE it back
            if (cb.state != TestState.RDMA_WRITE_COMPLETE) {
                cb.log.err("wait for RDMA_WRITE_COMPLETE state " + cb.state.value());
                ret = -1;
                break;
            }
            if (o.validate() && start.slice(0, o.size()).compareTo(sink.slice(0, o.size())) != 0) {
                cb.log.err("data mismatch!");
                ret = -1;
                break;
            }
            if (o.verbose()) {
                cb.log.out("ping data: " + PingPattern.cString(sink, o.size()));
            }
        }
        return cb.state == TestState.DISCONNECTED ? 0 : ret;
    }
}
