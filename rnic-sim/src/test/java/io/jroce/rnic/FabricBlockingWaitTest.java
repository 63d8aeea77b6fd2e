package io.jroce.rnic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/**
 * A blocking wait on a device of a simulated fabric runs the fabric's virtual clock on the thread
 * that drives it, so that what it waits for arrives (it used to sleep out its real-time timeout, in
 * which the fabric never moved, and return nothing); from inside the fabric's own run it is refused
 * at once. Another thread's blocking poll, while the fabric's thread produces completions, stays a
 * real-time wait: CompletionQueueStressTest.
 */
class FabricBlockingWaitTest {
    private final ChannelFabricPair pair = new ChannelFabricPair();

    @AfterEach
    void close() {
        pair.close();
    }

    private void sendFromAToB(byte[] message) {
        pair.b.qp.postRecv(new ReceiveWorkRequest().wrId(2).sgList(ScatterGatherEntry.of(pair.b.mr, 0, 4096)));
        pair.a.mr.buffer().put(0, message);
        pair.a.qp.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(pair.a.mr, 0, message.length)));
    }

    @Test
    void aBlockingPollRunsTheFabricUntilTheCompletionArrives() throws Exception {
        sendFromAToB(new byte[] {1, 2, 3});
        long before = pair.fabric.nowNs();
        WorkCompletion wc = new WorkCompletion();
        assertTrue(pair.b.cq.pollBlocking(wc, 10, TimeUnit.SECONDS), "the SEND arrives in the fabric's time");
        assertEquals(WcStatus.SUCCESS, wc.status());
        assertEquals(WcOpcode.RECV, wc.opcode());
        assertEquals(3, wc.byteLen());
        assertEquals(3, pair.b.mr.buffer().get(2));
        assertTrue(pair.fabric.nowNs() > before, "the virtual clock moved");
        assertTrue(pair.a.cq.pollBlocking(wc, 10, TimeUnit.SECONDS), "and the ACK completes the sender's SEND");
        assertEquals(WcOpcode.SEND, wc.opcode());
        assertEquals(WcStatus.SUCCESS, wc.status());
    }

    @Test
    void aBlockingPollWithNothingToComeEndsAfterItsTimeoutInTheFabricsTime() throws Exception {
        long before = pair.fabric.nowNs();
        assertFalse(pair.b.cq.pollBlocking(new WorkCompletion(), 2, TimeUnit.SECONDS));
        assertTrue(pair.fabric.nowNs() - before >= TimeUnit.SECONDS.toNanos(2), "two virtual seconds passed");
    }

    @Test
    void aCompletionChannelWaitRunsTheFabricUntilTheCqFires() throws Exception {
        pair.b.cq.requestNotification(false);
        sendFromAToB(new byte[] {9});
        assertSame(pair.b.cq, pair.b.channel.getEvent(10, TimeUnit.SECONDS));
        pair.b.cq.ackEvents(1);
        long before = pair.fabric.nowNs();
        assertNull(pair.a.channel.getEvent(1, TimeUnit.SECONDS), "a's CQ is not armed: nothing fires");
        assertTrue(pair.fabric.nowNs() - before >= TimeUnit.SECONDS.toNanos(1));
    }

    @Test
    void aBlockingWaitInsideTheFabricsOwnRunIsRefused() {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        pair.fabric.execute(() -> {
            try {
                pair.b.cq.pollBlocking(new WorkCompletion(), 1, TimeUnit.SECONDS);
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        pair.settle();
        InvalidStateException refused = (InvalidStateException) thrown.get();
        assertTrue(refused.getMessage().contains("inside the simulated fabric's own run"), refused.getMessage());
    }
}
