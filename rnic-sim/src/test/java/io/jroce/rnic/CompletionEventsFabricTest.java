package io.jroce.rnic;

import static io.jroce.rnic.ChannelFabricPair.takeEvent;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ResourceBusyException;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/**
 * Completion events on the simulated fabric (ibv_req_notify_cq, ibv_get_cq_event,
 * ibv_ack_cq_events; IBTA Vol. 1 11.4.2.2): an armed CQ fires once per arming, solicited-only
 * arming fires on a solicited or an unsuccessful completion only, and a CQ with events taken but
 * not acknowledged cannot be destroyed.
 */
class CompletionEventsFabricTest {

    private static void send(ChannelFabricPair p, long wrId, int flags) {
        p.b.qp.postRecv(new ReceiveWorkRequest().wrId(wrId).sgList(ScatterGatherEntry.of(p.b.mr, 0, 1024)));
        p.a.qp.postSend(new SendWorkRequest().wrId(wrId).opcode(WrOpcode.SEND).sendFlags(flags)
            .sgList(ScatterGatherEntry.of(p.a.mr, 0, 100)));
    }

    @Test
    void anArmedCqRaisesExactlyOneEventForAReceivedSend() {
        try (ChannelFabricPair p = new ChannelFabricPair()) {
            p.b.cq.requestNotification(false);
            send(p, 1, SendFlags.SIGNALED);
            assertEquals(WcStatus.SUCCESS, p.await(p.b.cq, 1).get(0).status());
            p.settle();
            assertSame(p.b.cq, takeEvent(p.b), "the event names the CQ that got the completion");
            assertNull(takeEvent(p.b), "one event per arming");
            p.b.cq.ackEvents(1);
        }
    }

    @Test
    void anUnarmedCqRaisesNoEvent() {
        try (ChannelFabricPair p = new ChannelFabricPair()) {
            send(p, 1, SendFlags.SIGNALED);
            p.await(p.b.cq, 1);
            p.await(p.a.cq, 1);
            assertNull(takeEvent(p.b), "receiver never armed");
            assertNull(takeEvent(p.a), "sender never armed");
        }
    }

    @Test
    void anEventDisarmsTheCqUntilItIsArmedAgain() {
        try (ChannelFabricPair p = new ChannelFabricPair()) {
            p.b.cq.requestNotification(false);
            send(p, 1, 0);
            send(p, 2, 0);
            p.await(p.b.cq, 2);
            assertSame(p.b.cq, takeEvent(p.b));
            assertNull(takeEvent(p.b), "two completions after one arming: one event");
            p.b.cq.requestNotification(false);
            send(p, 3, 0);
            p.await(p.b.cq, 1);
            assertSame(p.b.cq, takeEvent(p.b), "re-armed: the next completion fires again");
            p.b.cq.ackEvents(2);
        }
    }

    @Test
    void solicitedOnlyIgnoresAnUnsolicitedSendAndFiresOnASolicitedOne() {
        try (ChannelFabricPair p = new ChannelFabricPair()) {
            p.b.cq.requestNotification(true);
            send(p, 1, 0);
            p.await(p.b.cq, 1);
            assertNull(takeEvent(p.b), "a SEND without the solicited-event bit");
            send(p, 2, SendFlags.SOLICITED);
            WorkCompletion wc = p.await(p.b.cq, 1).get(0);
            assertEquals(2, wc.wrId());
            assertSame(p.b.cq, takeEvent(p.b), "a SEND with the solicited-event bit");
            p.b.cq.ackEvents(1);
        }
    }

    @Test
    void solicitedOnlyFiresOnAnErrorCompletion() {
        try (ChannelFabricPair p = new ChannelFabricPair()) {
            p.a.cq.requestNotification(true);
            p.a.qp.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
                .remoteAddress(p.b.mr.address()).rkey(p.b.mr.rkey()).sgList(ScatterGatherEntry.of(p.a.mr, 0, 8)));
            assertEquals(WcStatus.SUCCESS, p.await(p.a.cq, 1).get(0).status());
            assertNull(takeEvent(p.a), "a successful send completion is not solicited");
            p.a.qp.postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
                .remoteAddress(p.b.mr.address()).rkey(p.b.mr.rkey() ^ 0x00ff0000)
                .sgList(ScatterGatherEntry.of(p.a.mr, 0, 8)));
            assertEquals(WcStatus.REM_ACCESS_ERR, p.await(p.a.cq, 1).get(0).status());
            assertSame(p.a.cq, takeEvent(p.a), "an unsuccessful completion fires a solicited-only CQ");
            p.a.cq.ackEvents(1);
        }
    }

    @Test
    void destroyIsRefusedUntilTakenEventsAreAcknowledged() {
        try (ChannelFabricPair p = new ChannelFabricPair()) {
            p.b.cq.requestNotification(false);
            send(p, 1, 0);
            p.await(p.b.cq, 1);
            p.settle();
            assertSame(p.b.cq, takeEvent(p.b));
            p.b.qp.close();
            ResourceBusyException e = assertThrows(ResourceBusyException.class, p.b.cq::close);
            assertEquals("completion queue has 1 event(s) taken from its channel and not acknowledged; "
                + "call ackEvents first (ibv_ack_cq_events)", e.getMessage());
            assertThrows(ResourceBusyException.class, p.b.channel::close, "the CQ still uses the channel");
            p.b.cq.ackEvents(1);
            p.b.cq.close();
            p.b.channel.close();
        }
    }

    @Test
    void eventsNotYetTakenGoWithTheirCq() {
        try (ChannelFabricPair p = new ChannelFabricPair()) {
            p.b.cq.requestNotification(false);
            send(p, 1, 0);
            p.await(p.b.cq, 1);
            p.settle();
            p.b.qp.close();
            p.b.cq.close(); // the event is queued, not taken: nothing to acknowledge (as the kernel drops it)
            assertNull(takeEvent(p.b), "the destroyed CQ's queued event was removed");
        }
    }

    @Test
    void anEventNamesTheCqThatFiredAmongSeveralOnAChannel() {
        try (ChannelFabricPair p = new ChannelFabricPair()) {
            var second = p.b.device.createCq(8, p.b.channel);
            try {
                p.b.cq.requestNotification(false);
                second.requestNotification(false);
                send(p, 1, 0);
                p.await(p.b.cq, 1);
                assertSame(p.b.cq, takeEvent(p.b));
                assertNull(takeEvent(p.b), "the second CQ had no completion");
                assertEquals(0, second.poll(new WorkCompletion[] {new WorkCompletion()}));
                p.b.cq.ackEvents(1);
            } finally {
                second.close();
            }
        }
    }
}
