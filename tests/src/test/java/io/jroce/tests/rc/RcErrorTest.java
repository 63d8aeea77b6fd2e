package io.jroce.tests.rc;

import io.jroce.tests.support.Completions;
import io.jroce.testsupport.Patterns;
import io.jroce.tests.support.RcConnection;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * RC error semantics (IBTA Vol. 1 9.7.5 requester errors, 9.9 responder errors, 10.3.1 the Error
 * state, 11.6.2 completion statuses): a NAK or an exhausted retry completes the failing request
 * with its status and moves the requester to ERR; every other outstanding or later work request
 * then completes with WR_FLUSH_ERR, in order. Each test has its own connection, which it breaks.
 */
class RcErrorTest extends RcTestBase {
    static final int LEN = 64 * 1024;
    private RcConnection conn;

    @Override
    int memoryLength() {
        return LEN;
    }

    private RcConnection fresh(RcConnection.Options o) {
        conn = pair.connect(o.pathMtu(Mtu.MTU_1024));
        return conn;
    }

    @AfterEach
    void disconnect() {
        if (conn != null) {
            pair.disconnect(conn);
            conn = null;
        }
    }

    private static WorkCompletion expect(RcConnection c, String what, long wrId, WcStatus status) {
        WorkCompletion wc = await(c.sendCqA, what, c);
        assertEquals(status, wc.status(), what + ": " + wc + "; " + c.diagnostics());
        assertEquals(wrId, wc.wrId(), what + " wr_id: " + wc);
        assertEquals(c.qpA.qpNum(), wc.qpNum(), what + " qp_num: " + wc);
        return wc;
    }

    private static SendWorkRequest write(long wrId, int rkey, long remote) {
        return new SendWorkRequest().wrId(wrId).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
            .remoteAddress(remote).rkey(rkey);
    }

    /** Waits (bounded) until {@code condition} holds; only a guard against hangs. */
    private static void awaitCondition(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Completions.TIMEOUT_SECONDS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("not within " + Completions.TIMEOUT_SECONDS + " s: " + what);
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted waiting for " + what);
            }
        }
    }

    /**
     * The requester reaches ERR when it fails a request; the error completion may be visible a
     * moment before the state is (rxe too posts the CQE, then calls rxe_qp_error), so wait for it.
     */
    private static void awaitErr(RcConnection c, String what) {
        awaitCondition(() -> c.qpA.state() == QpState.ERR, what + "; " + c.diagnostics());
    }

    @Test
    void writeWithABadRkeyFailsWithRemoteAccessErrorAndFlushesTheRest() {
        RcConnection c = fresh(new RcConnection.Options());
        Patterns.fill(memA, 0, 256, 1);
        c.qpA.postSend(write(1, memB.rkey() ^ 0x00ff0000, memB.address()).sgList(ScatterGatherEntry.of(memA, 0, 256)));
        c.qpA.postSend(write(2, memB.rkey(), memB.address()).sgList(ScatterGatherEntry.of(memA, 0, 256)));
        WorkCompletion first = expect(c, "write with an rkey B never issued", 1, WcStatus.REM_ACCESS_ERR);
        expect(c, "the write behind the failed one", 2, WcStatus.WR_FLUSH_ERR);
        awaitErr(c, "a requester NAK moves the QP to ERR; " + first);
    }

    @Test
    void writeOutsideTheRemoteRegionFailsWithRemoteAccessError() {
        RcConnection c = fresh(new RcConnection.Options());
        c.qpA.postSend(write(3, memB.rkey(), memB.address() + LEN - 100).sgList(ScatterGatherEntry.of(memA, 0, 200)));
        expect(c, "write running 100 bytes past B's region", 3, WcStatus.REM_ACCESS_ERR);
        awaitErr(c, "the failed request moves the requester to ERR");
    }

    @Test
    void sendLargerThanTheReceiveBufferFailsOnBothSides() {
        RcConnection c = fresh(new RcConnection.Options());
        c.qpB.postRecv(new ReceiveWorkRequest().wrId(40).sgList(ScatterGatherEntry.of(memB, 0, 100)));
        c.qpA.postSend(new SendWorkRequest().wrId(4).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(memA, 0, 3000)));
        expect(c, "send of 3000 bytes into a 100-byte receive", 4, WcStatus.REM_INV_REQ_ERR);
        WorkCompletion r = await(c.recvCqB, "the too-small receive", c);
        assertEquals(WcStatus.LOC_LEN_ERR, r.status(), "responder completion: " + r);
        assertEquals(40, r.wrId(), "responder completion wr_id: " + r);
        awaitErr(c, "the failed request moves the requester to ERR");
    }

    @Test
    void rnrWithNoRetryLeftFails() {
        RcConnection.Options o = new RcConnection.Options();
        o.rnrRetry = 0;
        RcConnection c = fresh(o);
        c.qpA.postSend(new SendWorkRequest().wrId(5).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(memA, 0, 10)));
        expect(c, "send with no receive posted and rnr_retry 0", 5, WcStatus.RNR_RETRY_EXC_ERR);
        awaitErr(c, "the failed request moves the requester to ERR");
    }

    @Test
    void sendWaitingOnRnrCompletesOnceAReceiveIsPosted() {
        RcConnection.Options o = new RcConnection.Options();
        o.minRnrTimer = 14; // B asks A to pause 1.28 ms between tries
        RcConnection c = fresh(o);
        long rnrBefore = pair.b().counter("send_rnr_err");
        byte[] data = Patterns.fill(memA, 0, 500, 6);
        c.qpA.postSend(new SendWorkRequest().wrId(6).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(memA, 0, 500)));
        awaitCondition(() -> pair.b().counter("send_rnr_err") > rnrBefore, "B sends an RNR NAK; " + c.diagnostics());
        c.qpB.postRecv(new ReceiveWorkRequest().wrId(60).sgList(ScatterGatherEntry.of(memB, 0, 1000)));
        assertCompletion(await(c.sendCqA, "send after RNR", c), "send after RNR", 6, WcOpcode.SEND, 500, c.qpA.qpNum());
        assertCompletion(await(c.recvCqB, "receive after RNR", c), "receive after RNR", 60, WcOpcode.RECV, 500,
            c.qpB.qpNum());
        Patterns.assertRegion(memB, 0, data, "message delivered after RNR");
        assertTrue(pair.a().counter("rcvd_rnr_err") >= 1, "A counted the RNR NAK; " + c.diagnostics());
        assertEquals(QpState.RTS, c.qpA.state());
    }

    @Test
    void noResponseExhaustsTheRetriesAndFails() {
        RcConnection.Options o = new RcConnection.Options();
        o.timeout = 10; // 4.2 ms
        o.retryCount = 1;
        RcConnection c = fresh(o);
        c.qpB.modify(new QpAttributes().state(QpState.RESET)); // B drops everything from now on
        c.qpA.postSend(write(7, memB.rkey(), memB.address()).sgList(ScatterGatherEntry.of(memA, 0, 64)));
        expect(c, "write to a peer that never answers, retry_cnt 1", 7, WcStatus.RETRY_EXC_ERR);
        awaitErr(c, "the failed request moves the requester to ERR");
        awaitCondition(() -> pair.a().counter("retry_exceeded_err") >= 1, "retry_exceeded_err counted; " + c.diagnostics());
    }

    @Test
    void enteringErrorFlushesPostedReceivesInOrder() {
        RcConnection c = fresh(new RcConnection.Options());
        for (int i = 0; i < 3; i++) {
            c.qpB.postRecv(new ReceiveWorkRequest().wrId(80 + i).sgList(ScatterGatherEntry.of(memB, 100L * i, 100)));
        }
        c.qpB.modify(new QpAttributes().state(QpState.ERR));
        for (int i = 0; i < 3; i++) {
            WorkCompletion r = await(c.recvCqB, "flushed receive " + i, c);
            assertEquals(WcStatus.WR_FLUSH_ERR, r.status(), "receive " + i + ": " + r);
            assertEquals(80 + i, r.wrId(), "flushed in posted order: " + r);
            assertEquals(c.qpB.qpNum(), r.qpNum());
        }
        Completions.assertNone(c.recvCqB, "B's recv CQ after the flush");
    }

    @Test
    void workPostedInErrorIsFlushed() {
        RcConnection c = fresh(new RcConnection.Options());
        c.qpA.modify(new QpAttributes().state(QpState.ERR));
        c.qpA.postRecv(new ReceiveWorkRequest().wrId(91).sgList(ScatterGatherEntry.of(memA, 0, 100)));
        c.qpA.postSend(new SendWorkRequest().wrId(90).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(memA, 200, 100)));
        expect(c, "send posted in ERR", 90, WcStatus.WR_FLUSH_ERR);
        WorkCompletion r = await(c.recvCqA, "receive posted in ERR", c);
        assertEquals(WcStatus.WR_FLUSH_ERR, r.status(), "receive posted in ERR: " + r);
        assertEquals(91, r.wrId());
    }
}
