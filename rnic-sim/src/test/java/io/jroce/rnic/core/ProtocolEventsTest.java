package io.jroce.rnic.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.jroce.stack.wire.AethSyndrome;
import io.jroce.stack.wire.NakCode;
import io.jroce.stack.wire.Opcode;

/**
 * What the engines tell a {@link io.jroce.rnic.events.ProtocolEvents} listener, one QP's engines at a
 * time on {@link EngineRig}: each event at the moment the protocol takes the step, with the PSN,
 * the cause and the retries left, and nothing while the flow is healthy.
 */
class ProtocolEventsTest {
    private static final int PSN = 100;

    @Test
    void aHealthyExchangeReportsNothing() {
        EngineRig rig = new EngineRig(256).rts(PSN, 0, 7, 0);
        rig.postSend(1, 3 * EngineRig.MTU);
        rig.t.requester.doWork(0);
        rig.ack(102, 10);
        assertEquals(List.of("1 SUCCESS SEND " + 3 * EngineRig.MTU), rig.sendCq.take());
        assertEquals(List.of(), rig.events.lines);
    }

    @Test
    void aSequenceErrorNakIsReceivedAndRetransmittedFromItsPsn() {
        EngineRig rig = new EngineRig(256).rts(PSN, 0, 7, 0);
        rig.postSend(1, 3 * EngineRig.MTU);
        rig.t.requester.doWork(0);
        rig.nak(101, NakCode.PSN_SEQUENCE_ERROR, 10);
        assertEquals(List.of("qp 0x11 received NAK PSN sequence error psn 0x65",
            "qp 0x11 retransmits from psn 0x65 after NAK sequence error, 6 left"), rig.events.lines);
    }

    @Test
    void anAckTimeoutRetransmitsUntilTheRetriesRunOutAndTheQpEntersErr() {
        EngineRig rig = new EngineRig(256).rts(PSN, 1, 1, 0); // timeout 1: 8192 ns
        rig.postSend(7, 10);
        rig.t.requester.doWork(0);
        rig.t.requester.onTimer(8192);
        rig.t.requester.doWork(8192);
        rig.t.requester.onTimer(2 * 8192);
        assertEquals(List.of("qp 0x11 retransmits from psn 0x64 after ACK timeout, 0 left", "qp 0x11 RTS -> ERR"),
            rig.events.lines);
    }

    @Test
    void anRnrNakIsReceivedWaitedOutAndRetriedWhenItsTimerExpires() {
        EngineRig rig = new EngineRig(256).rts(PSN, 0, 7, 7);
        rig.postSend(3, 10);
        rig.t.requester.doWork(0);
        rig.acknowledge(100, AethSyndrome.rnrNak(1), 1_000); // timer code 1: 10 us
        rig.t.requester.doWork(10_999);
        assertEquals(List.of("qp 0x11 received RNR NAK, timer 1 psn 0x64", "qp 0x11 waits 10000 ns for psn 0x64"),
            rig.events.lines, "nothing is sent again before the wait is over");
        rig.t.requester.doWork(11_000);
        assertEquals(List.of("qp 0x11 received RNR NAK, timer 1 psn 0x64", "qp 0x11 waits 10000 ns for psn 0x64",
            "qp 0x11 rnr timer expired", "qp 0x11 retransmits from psn 0x64 after RNR NAK, -1 left"), rig.events.lines);
    }

    /** A request beyond the expected PSN gets one sequence-error NAK; the responder reports it once. */
    @Test
    void theResponderReportsTheNakItSends() {
        EngineRig rig = new EngineRig(256).rts(PSN, 0, 7, 0);
        rig.postRecv(1, new EngineRig.TestRegion(rig.keys, rig.pd, 4096), 4096);
        rig.request(Opcode.RC_SEND_ONLY, 5, new byte[8], 0); // the responder expects PSN 0
        rig.request(Opcode.RC_SEND_ONLY, 6, new byte[8], 0);
        assertEquals(List.of("qp 0x11 sent NAK PSN sequence error psn 0x0"), rig.events.lines);
    }

    @Test
    void dropsReachTheListenerWithTheirReason() {
        EngineRig rig = new EngineRig(256).rts(PSN, 0, 7, 0);
        rig.postSend(1, 10);
        rig.t.requester.doWork(0);
        rig.ack(5000, 10); // acknowledges a PSN never sent
        assertEquals(List.of("dropped 1 drop_unexpected_response"), rig.events.lines);
    }
}
