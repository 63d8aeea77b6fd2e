package io.jroce.tests.events;

import io.jroce.tests.support.Completions;
import io.jroce.tests.support.RcConnection;
import io.jroce.tests.support.RcPair;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionChannel;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ResourceBusyException;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Completion channels over UDP: an armed CQ raises one event per arming, naming itself;
 * solicited-only arming ignores unsolicited completions but fires on a SEND with the
 * solicited-event bit and on an error completion; a CQ whose taken events are unacknowledged
 * cannot be destroyed; a getEvent blocked on another thread wakes when the completion arrives.
 *
 * <p>Negative checks ("no event") run only after the completion that would have fired was polled.
 * The RNIC queues the event right after the completion, so a faulty RNIC may slip through such a
 * check now and then, but a correct one never fails it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CompletionEventsTest {
    private static final int LEN = 64 * 1024;
    private static final int ALL_ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;

    private RcPair pair;
    private MemoryRegion memA;
    private MemoryRegion memB;
    private CompletionChannel channelA;
    private CompletionChannel channelB;
    private RcConnection conn;

    @BeforeAll
    void openPair() {
        pair = RcPair.open("127.0.0.1", Mtu.MTU_4096);
        memA = pair.a().allocateMemory(LEN, ALL_ACCESS);
        memB = pair.b().allocateMemory(LEN, ALL_ACCESS);
    }

    @AfterAll
    void closePair() {
        if (pair != null) {
            pair.close();
        }
    }

    @BeforeEach
    void connect() {
        channelA = pair.a().device().createCompletionChannel();
        channelB = pair.b().device().createCompletionChannel();
        RcConnection.Options o = new RcConnection.Options();
        o.channelA = channelA;
        o.channelB = channelB;
        conn = pair.connect(o);
    }

    @AfterEach
    void disconnect() {
        pair.disconnect(conn);
        channelA.close();
        channelB.close();
    }

    private void send(long wrId, int flags) {
        conn.qpB.postRecv(new ReceiveWorkRequest().wrId(wrId).sgList(ScatterGatherEntry.of(memB, 0, 4096)));
        conn.qpA.postSend(new SendWorkRequest().wrId(wrId).opcode(WrOpcode.SEND).sendFlags(flags)
            .sgList(ScatterGatherEntry.of(memA, 0, 1000)));
    }

    private WorkCompletion received(String what) {
        WorkCompletion wc = Completions.await(conn.recvCqB, what, conn::diagnostics);
        assertEquals(WcStatus.SUCCESS, wc.status(), what + ": " + wc);
        return wc;
    }

    private CompletionQueue awaitEvent(CompletionChannel channel, String what) throws InterruptedException {
        CompletionQueue cq = channel.getEvent(Completions.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (cq == null) {
            fail("no completion event for " + what + " within " + Completions.TIMEOUT_SECONDS + " s; "
                + conn.diagnostics());
        }
        return cq;
    }

    private static void assertNoEvent(CompletionChannel channel, String what) throws InterruptedException {
        assertNull(channel.getEvent(0, TimeUnit.SECONDS), "unexpected completion event: " + what);
    }

    @Test
    void anArmedCqRaisesExactlyOneEventForAReceivedSend() throws InterruptedException {
        conn.recvCqB.requestNotification(false);
        send(1, SendFlags.SIGNALED);
        assertSame(conn.recvCqB, awaitEvent(channelB, "the SEND received on an armed CQ"));
        received("the SEND");
        Completions.await(conn.sendCqA, "the SEND on the sender", conn::diagnostics);
        assertNoEvent(channelB, "a second event for one arming");
        assertNoEvent(channelA, "the sender's CQs were never armed");
        conn.recvCqB.ackEvents(1);
    }

    @Test
    void noEventWithoutArming() throws InterruptedException {
        send(2, 0);
        received("a SEND on an unarmed CQ");
        assertNoEvent(channelB, "the CQ was never armed");
    }

    @Test
    void solicitedOnlyIgnoresAnUnsolicitedSendAndFiresOnASolicitedOne() throws InterruptedException {
        conn.recvCqB.requestNotification(true);
        send(3, 0);
        received("an unsolicited SEND");
        assertNoEvent(channelB, "an unsolicited SEND on a CQ armed for solicited completions");
        send(4, SendFlags.SOLICITED);
        assertSame(conn.recvCqB, awaitEvent(channelB, "a SEND with the solicited-event bit"));
        assertEquals(4, received("the solicited SEND").wrId());
        conn.recvCqB.ackEvents(1);
    }

    @Test
    void solicitedOnlyFiresOnAnErrorCompletion() throws InterruptedException {
        conn.sendCqA.requestNotification(true);
        conn.qpA.postSend(new SendWorkRequest().wrId(5).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
            .remoteAddress(memB.address()).rkey(memB.rkey() ^ 0x00ff0000).sgList(ScatterGatherEntry.of(memA, 0, 64)));
        assertSame(conn.sendCqA, awaitEvent(channelA, "an error completion on a CQ armed for solicited completions"));
        WorkCompletion wc = Completions.await(conn.sendCqA, "the write with a bad rkey", conn::diagnostics);
        assertEquals(WcStatus.REM_ACCESS_ERR, wc.status(), wc.toString());
        conn.sendCqA.ackEvents(1);
    }

    @Test
    void destroyIsRefusedWhileTakenEventsAreUnacknowledged() throws InterruptedException {
        conn.recvCqB.requestNotification(false);
        send(6, 0);
        assertSame(conn.recvCqB, awaitEvent(channelB, "the SEND"));
        received("the SEND");
        conn.qpB.close();
        assertThrows(ResourceBusyException.class, conn.recvCqB::close, "one event taken, none acknowledged");
        conn.recvCqB.ackEvents(1);
        conn.recvCqB.close();
    }

    @Test
    void aBlockedGetEventOnAnotherThreadWakesWhenTheCompletionArrives() throws Exception {
        conn.recvCqB.requestNotification(false);
        FutureTask<CompletionQueue> waiting = new FutureTask<>(
            () -> channelB.getEvent(Completions.TIMEOUT_SECONDS, TimeUnit.SECONDS));
        Thread waiter = new Thread(waiting, "getEvent-waiter");
        waiter.setDaemon(true);
        waiter.start();
        // Guard, not timing: proceed once the waiter is parked inside getEvent.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Completions.TIMEOUT_SECONDS);
        while (waiter.getState() != Thread.State.TIMED_WAITING && !waiting.isDone()) {
            if (System.nanoTime() > deadline) {
                fail("the waiter never blocked in getEvent: " + waiter.getState());
            }
            Thread.onSpinWait();
        }
        send(7, 0);
        CompletionQueue cq = waiting.get(2 * Completions.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertSame(conn.recvCqB, cq, "the blocked getEvent returns the CQ that got the completion");
        received("the SEND that woke the waiter");
        conn.recvCqB.ackEvents(1);
    }
}
