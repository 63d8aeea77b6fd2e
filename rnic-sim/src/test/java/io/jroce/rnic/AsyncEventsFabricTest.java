package io.jroce.rnic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.verbs.AsyncEvent;
import io.jroce.verbs.AsyncEventType;
import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/**
 * Asynchronous events on the simulated fabric (IBTA Vol. 1 11.6.3): PORT_ACTIVE to the first
 * listener, PORT_ERR when the device closes, CQ_ERR once when a CQ overflows, QP_FATAL when a
 * completion error moves a QP to ERR, and a listener that throws cannot disturb the I/O thread.
 */
class AsyncEventsFabricTest {

    private static SendWorkRequest write(ChannelFabricPair p, long wrId, int rkey) {
        return new SendWorkRequest().wrId(wrId).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
            .remoteAddress(p.b.mr.address()).rkey(rkey).sgList(ScatterGatherEntry.of(p.a.mr, 0, 8));
    }

    @Test
    void portActiveGoesToTheFirstListenerOnlyAndPortErrComesOnClose() {
        SimulatedFabric fabric = new SimulatedFabric();
        RdmaDevice device = SoftRnic.builder().address("10.0.0.1").openOn(fabric);
        List<AsyncEvent> first = new ArrayList<>();
        device.asyncEventListener(first::add);
        assertTrue(fabric.runUntil(() -> !first.isEmpty(), ChannelFabricPair.MAX_RUN_NS), "no PORT_ACTIVE");
        assertEquals(List.of(new AsyncEvent(AsyncEventType.PORT_ACTIVE, null, 1)), first);

        List<AsyncEvent> second = new ArrayList<>();
        device.asyncEventListener(second::add);
        fabric.runFor(1_000_000L);
        assertEquals(List.of(), second, "PORT_ACTIVE is delivered once per device");

        device.close();
        assertEquals(List.of(new AsyncEvent(AsyncEventType.PORT_ERR, null, 1)), second);
        assertEquals(1, first.size(), "a replaced listener hears nothing more");
    }

    @Test
    void aCqOverflowRaisesCqErrOnce() {
        try (ChannelFabricPair p = new ChannelFabricPair(1)) {
            for (int i = 1; i <= 3; i++) {
                p.a.qp.postSend(write(p, i, p.b.mr.rkey()));
            }
            p.settle();
            List<AsyncEvent> errs = p.a.events(AsyncEventType.CQ_ERR);
            assertEquals(1, errs.size(), "two completions were lost, one CQ_ERR: " + p.a.asyncEvents);
            assertSame(p.a.cq, errs.get(0).resource());
            assertEquals(0, errs.get(0).portNum());
            WorkCompletion wc = new WorkCompletion();
            assertTrue(p.a.cq.poll(wc));
            assertEquals(1, wc.wrId(), "the completion that fitted");
            assertEquals(List.of(), p.b.events(AsyncEventType.CQ_ERR));
        }
    }

    @Test
    void aRemoteAccessErrorRaisesQpFatalForTheRequestersQp() {
        try (ChannelFabricPair p = new ChannelFabricPair()) {
            p.a.qp.postSend(write(p, 1, p.b.mr.rkey() ^ 0x00ff0000));
            assertEquals(WcStatus.REM_ACCESS_ERR, p.await(p.a.cq, 1).get(0).status());
            List<AsyncEvent> fatal = p.a.events(AsyncEventType.QP_FATAL);
            assertEquals(1, fatal.size(), "A's events: " + p.a.asyncEvents);
            assertSame(p.a.qp, fatal.get(0).resource());
            assertEquals(List.of(), p.a.events(AsyncEventType.CQ_ERR));
        }
    }

    @Test
    void aModifyToErrRaisesNoQpFatal() {
        try (ChannelFabricPair p = new ChannelFabricPair()) {
            p.a.qp.modify(new QpAttributes().state(QpState.ERR));
            p.settle();
            assertEquals(List.of(), p.a.events(AsyncEventType.QP_FATAL), "the application asked for ERR");
        }
    }

    @Test
    void aListenerThatThrowsDoesNotDisturbTheIoThread() {
        try (ChannelFabricPair p = new ChannelFabricPair()) {
            List<AsyncEvent> seen = new ArrayList<>();
            p.a.device.asyncEventListener(e -> {
                seen.add(e);
                throw new IllegalStateException("a broken listener");
            });
            p.a.qp.postSend(write(p, 1, p.b.mr.rkey() ^ 0x00ff0000));
            p.a.qp.postSend(write(p, 2, p.b.mr.rkey()));
            List<WorkCompletion> wcs = p.await(p.a.cq, 2);
            assertEquals(WcStatus.REM_ACCESS_ERR, wcs.get(0).status());
            assertEquals(WcStatus.WR_FLUSH_ERR, wcs.get(1).status());
            assertTrue(seen.stream().anyMatch(e -> e.type() == AsyncEventType.QP_FATAL), "listener called: " + seen);
            assertEquals(0L, p.a.device.counters().get("drop_internal_error"), "the throw never reached the engine");
            assertNull(ChannelFabricPair.takeEvent(p.a), "the CQ was never armed");
        }
    }
}
