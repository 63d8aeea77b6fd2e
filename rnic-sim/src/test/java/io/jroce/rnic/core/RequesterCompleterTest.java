package io.jroce.rnic.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.jroce.stack.stats.Counter;
import io.jroce.stack.wire.AethSyndrome;
import io.jroce.stack.wire.NakCode;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.Psn;
import io.jroce.verbs.QpState;

/** The RC requester and completer of one QP, built alone (see {@link EngineRig}) and driven with packets and time. */
class RequesterCompleterTest {
    private static final int PSN = 100;

    @Test
    void goesBackNToThePsnANakNames() {
        EngineRig rig = new EngineRig(256).rts(PSN, 0, 7, 0);
        rig.postSend(1, 3 * EngineRig.MTU); // FIRST, MIDDLE, LAST
        rig.t.requester.doWork(0);
        assertEquals(List.of("RC_SEND_FIRST 100", "RC_SEND_MIDDLE 101", "RC_SEND_LAST 102"), rig.transport.take());

        rig.nak(101, NakCode.PSN_SEQUENCE_ERROR, 10); // 100 arrived, 101 did not
        rig.t.requester.doWork(20);
        assertEquals(List.of("RC_SEND_MIDDLE 101", "RC_SEND_LAST 102"), rig.transport.take());
        assertEquals(1, rig.counters.get(Counter.RCVD_SEQ_ERR));
        assertEquals(2, rig.counters.get(Counter.RETRANSMITTED_PKTS));
        assertEquals(List.of(), rig.sendCq.take());

        // A second NAK for the same gap, overtaken by the retransmission, rewinds nothing.
        rig.nak(101, NakCode.PSN_SEQUENCE_ERROR, 30);
        rig.t.requester.doWork(40);
        assertEquals(List.of(), rig.transport.take());

        rig.ack(102, 50);
        assertEquals(List.of("1 SUCCESS SEND " + 3 * EngineRig.MTU), rig.sendCq.take());
        assertEquals(0, rig.budget.inFlight());
    }

    /**
     * Every packet of a SEND or WRITE reads its local buffers only while their lkeys are valid (as
     * rxe's copy_data looks the lkey up for every packet): a packet sent again after the buffer was
     * deregistered reads nothing, and the WQE completes with a local protection error.
     */
    @Test
    void aPacketResentAfterItsBufferIsDeregisteredReadsNothingAndFailsTheWqe() {
        EngineRig rig = new EngineRig(256).rts(PSN, 0, 7, 0);
        EngineRig.TestRegion mr = new EngineRig.TestRegion(rig.keys, rig.pd, 3 * EngineRig.MTU);
        rig.postSendFrom(1, mr, 3 * EngineRig.MTU);
        rig.t.requester.doWork(0);
        assertEquals(List.of("RC_SEND_FIRST 100", "RC_SEND_MIDDLE 101", "RC_SEND_LAST 102"), rig.transport.take());

        rig.keys.release(mr.lkey()); // deregistered while the SEND is outstanding
        rig.nak(101, NakCode.PSN_SEQUENCE_ERROR, 10);
        rig.t.requester.doWork(20);
        assertEquals(List.of(), rig.transport.take(), "nothing is read from a deregistered buffer");
        assertEquals(List.of("1 LOC_PROT_ERR SEND " + 3 * EngineRig.MTU), rig.sendCq.take());
        assertEquals(QpState.ERR, rig.qp.state);
    }

    /** The same when the budget held the rest of the message back and the buffer is deregistered meanwhile. */
    @Test
    void theRestOfAMessageHeldBackIsNotReadAfterItsBufferIsDeregistered() {
        EngineRig rig = new EngineRig(1).rts(PSN, 0, 7, 0);
        EngineRig.TestRegion mr = new EngineRig.TestRegion(rig.keys, rig.pd, 3 * EngineRig.MTU);
        rig.postSendFrom(1, mr, 3 * EngineRig.MTU);
        rig.t.requester.doWork(0);
        assertEquals(List.of("RC_SEND_FIRST 100"), rig.transport.take());

        rig.keys.release(mr.lkey());
        rig.ack(100, 10);
        rig.t.requester.doWork(20);
        assertEquals(List.of(), rig.transport.take(), "nothing is read from a deregistered buffer");
        assertEquals(List.of("1 LOC_PROT_ERR SEND " + 3 * EngineRig.MTU), rig.sendCq.take());
        assertEquals(QpState.ERR, rig.qp.state);
    }

    /**
     * Issue 11: a NAK or RNR NAK whose PSN was never sent (a forged one) is dropped and counted; it
     * fails no WQE, moves the QP nowhere and holds nothing back.
     */
    @Test
    void nakForAPsnNeverSentIsDroppedAndChangesNothing() {
        EngineRig rig = new EngineRig(256).rts(PSN, 0, 7, 0);
        rig.postSend(1, 10);
        rig.t.requester.doWork(0);
        assertEquals(List.of("RC_SEND_ONLY 100"), rig.transport.take());

        int[] neverSent = {101, 102, 5000, Psn.add(PSN, 0x7FFFFF), Psn.add(PSN, -0x7FFFFF)};
        for (int psn : neverSent) {
            rig.nak(psn, NakCode.INVALID_REQUEST, 10);
            rig.nak(psn, NakCode.REMOTE_ACCESS_ERROR, 10);
            rig.nak(psn, NakCode.REMOTE_OPERATIONAL_ERROR, 10);
            rig.nak(psn, NakCode.PSN_SEQUENCE_ERROR, 10);
            rig.acknowledge(psn, AethSyndrome.rnrNak(31), 10);
        }
        assertEquals(5L * neverSent.length, rig.counters.get(Counter.DROP_UNEXPECTED_RESPONSE));
        assertEquals(QpState.RTS, rig.qp.state);
        assertEquals(0, rig.fatalErrors);
        assertEquals(List.of(), rig.sendCq.take());
        assertEquals(0, rig.counters.get(Counter.RCVD_RNR_ERR));
        assertEquals(0, rig.counters.get(Counter.RCVD_SEQ_ERR));

        // Nothing waits for an RNR timer or goes back: the next SEND goes out at once, nothing is resent.
        rig.postSend(2, 10);
        rig.t.requester.doWork(20);
        assertEquals(List.of("RC_SEND_ONLY 101"), rig.transport.take());
        rig.ack(101, 30);
        assertEquals(List.of("1 SUCCESS SEND 10", "2 SUCCESS SEND 10"), rig.sendCq.take());
    }

    /** Found by the receive-path fuzzer: a reserved NAK code used to raise a NullPointerException in the completer. */
    @Test
    void nakWithAReservedCodeIsDroppedAndChangesNothing() {
        EngineRig rig = new EngineRig(256).rts(PSN, 0, 7, 0);
        rig.postSend(1, 10);
        rig.t.requester.doWork(0);
        assertEquals(List.of("RC_SEND_ONLY 100"), rig.transport.take());

        for (int code = 5; code <= 31; code++) {
            rig.acknowledge(100, (3 << 5) | code, 10); // AETH syndrome 011xxxxx: a NAK with code xxxxx
        }
        assertEquals(27, rig.counters.get(Counter.DROP_UNEXPECTED_RESPONSE));
        assertEquals(QpState.RTS, rig.qp.state);
        assertEquals(List.of(), rig.sendCq.take());
        rig.ack(100, 10);
        assertEquals(List.of("1 SUCCESS SEND 10"), rig.sendCq.take());
    }

    @Test
    void ackTimerRetransmitsRetryCountTimesThenFailsTheQp() {
        EngineRig rig = new EngineRig(256).rts(PSN, 1, 2, 0); // timeout 1: 4.096 us * 2 = 8192 ns
        rig.postSend(7, 10);
        rig.t.requester.doWork(0);
        assertEquals(List.of("RC_SEND_ONLY 100"), rig.transport.take());

        rig.t.requester.onTimer(8191);
        assertEquals(List.of(), rig.scheduled);
        for (int retry = 1; retry <= 2; retry++) {
            long expiry = 8192L * retry;
            rig.t.requester.onTimer(expiry);
            assertEquals(List.of(rig.qp), rig.scheduled, "retry " + retry + " wakes the QP");
            rig.scheduled.clear();
            rig.t.requester.doWork(expiry);
            assertEquals(List.of("RC_SEND_ONLY 100"), rig.transport.take());
        }
        assertEquals(2, rig.counters.get(Counter.COMPLETER_RETRY_ERR));

        rig.t.requester.onTimer(3 * 8192);
        assertEquals(List.of("7 RETRY_EXC_ERR SEND 10"), rig.sendCq.take());
        assertEquals(1, rig.counters.get(Counter.RETRY_EXCEEDED_ERR));
        assertEquals(QpState.ERR, rig.qp.state);
        assertEquals(1, rig.fatalErrors);
        assertEquals(0, rig.budget.inFlight());
    }

    @Test
    void progressRestoresTheRetryCount() {
        EngineRig rig = new EngineRig(256).rts(PSN, 1, 1, 0);
        rig.postSend(1, 10);
        rig.postSend(2, 10);
        rig.t.requester.doWork(0);
        assertEquals(List.of("RC_SEND_ONLY 100", "RC_SEND_ONLY 101"), rig.transport.take());
        rig.t.requester.onTimer(8192); // the one retry
        rig.t.requester.doWork(8192);
        assertEquals(List.of("RC_SEND_ONLY 100", "RC_SEND_ONLY 101"), rig.transport.take());
        rig.ack(100, 9000); // progress: retry_cnt is whole again, the timer restarts from now
        assertEquals(List.of("1 SUCCESS SEND 10"), rig.sendCq.take());
        rig.t.requester.onTimer(9000 + 8191);
        rig.t.requester.onTimer(9000 + 8192);
        rig.t.requester.doWork(9000 + 8192);
        assertEquals(List.of("RC_SEND_ONLY 101"), rig.transport.take());
        assertEquals(QpState.RTS, rig.qp.state);
    }

    @Test
    void rnrNakWaitsTheTimerThenRetriesUntilRnrRetryRunsOut() {
        EngineRig rig = new EngineRig(256).rts(PSN, 0, 7, 1);
        rig.postSend(3, 10);
        rig.t.requester.doWork(0);
        assertEquals(List.of("RC_SEND_ONLY 100"), rig.transport.take());

        rig.acknowledge(100, AethSyndrome.rnrNak(1), 1_000); // timer code 1: 10 us
        assertEquals(1, rig.counters.get(Counter.RCVD_RNR_ERR));
        assertEquals(0, rig.budget.inFlight(), "an RNR-waiting QP holds no budget");
        rig.t.requester.doWork(10_999);
        assertEquals(List.of(), rig.transport.take());
        rig.t.requester.onTimer(10_999);
        assertEquals(List.of(), rig.scheduled);
        rig.t.requester.onTimer(11_000);
        assertEquals(List.of(rig.qp), rig.scheduled);
        rig.t.requester.doWork(11_000);
        assertEquals(List.of("RC_SEND_ONLY 100"), rig.transport.take());
        assertEquals(1, rig.budget.inFlight());

        rig.acknowledge(100, AethSyndrome.rnrNak(1), 12_000); // rnr_retry 1 is used up
        assertEquals(List.of("3 RNR_RETRY_EXC_ERR SEND 10"), rig.sendCq.take());
        assertEquals(1, rig.counters.get(Counter.RNR_RETRY_EXCEEDED_ERR));
        assertEquals(QpState.ERR, rig.qp.state);
    }

    @Test
    void theAckTimerStopsDuringAnRnrWaitLongerThanItsTimeout() {
        // ACK timeout 8192 ns and one retry; RNR timer code 0 asks for a wait of 655.36 ms: the
        // responder answered, so nothing is lost and no retry may be spent while waiting
        // (hfi1's do_rc_ack likewise stops the retry timer when it starts the RNR timer).
        EngineRig rig = new EngineRig(256).rts(PSN, 1, 1, 7);
        rig.postSend(5, 10);
        rig.t.requester.doWork(0);
        assertEquals(List.of("RC_SEND_ONLY 100"), rig.transport.take());
        rig.acknowledge(100, AethSyndrome.rnrNak(0), 1_000);
        long resume = 1_000 + 655_360_000L;
        for (long t = 1_000 + 8192; t < resume; t += 8192 * 1000) {
            rig.t.requester.onTimer(t);
        }
        rig.t.requester.onTimer(resume - 1);
        assertEquals(List.of(), rig.scheduled, "no timeout during the RNR wait");
        assertEquals(0, rig.counters.get(Counter.COMPLETER_RETRY_ERR));
        assertEquals(QpState.RTS, rig.qp.state);
        assertEquals(List.of(), rig.sendCq.take());

        rig.t.requester.onTimer(resume);
        assertEquals(List.of(rig.qp), rig.scheduled);
        rig.t.requester.doWork(resume);
        assertEquals(List.of("RC_SEND_ONLY 100"), rig.transport.take());
        assertTrue(rig.ctx.timerFloor.due(resume + 8192), "the ACK timer runs again for the packet resent");
        rig.ack(100, resume + 100);
        assertEquals(List.of("5 SUCCESS SEND 10"), rig.sendCq.take());
    }

    @Test
    void theTimerFloorIsTheAckDeadlineAndTheRnrResumeAndAScanSetsItAgain() {
        EngineRig rig = new EngineRig(256).rts(PSN, 1, 7, 7); // ACK timeout 8192 ns
        TimerFloor floor = rig.ctx.timerFloor;
        assertFalse(floor.due(Long.MAX_VALUE / 2), "nothing armed: no tick visits the QPs");
        rig.postSend(1, 10);
        rig.postSend(2, 10);
        rig.t.requester.doWork(0);
        assertFalse(floor.due(8191));
        assertTrue(floor.due(8192), "the ACK timer armed at 0");

        rig.ack(100, 5_000); // progress restarts the timer at 5000: the floor stays early
        assertTrue(floor.due(8192));
        floor.clear(); // what the engine's tick does at 8192 before it visits the QPs
        rig.t.requester.onTimer(8192);
        rig.t.sendState.noteDeadlines(floor);
        assertEquals(List.of(), rig.scheduled, "not due yet: the ACK at 5000 restarted it");
        assertFalse(floor.due(5_000 + 8191));
        assertTrue(floor.due(5_000 + 8192), "set again from the deadline still armed");

        rig.acknowledge(101, AethSyndrome.rnrNak(1), 6_000); // RNR: resume at 16 us, the ACK timer stops
        floor.clear();
        rig.t.sendState.noteDeadlines(floor);
        assertFalse(floor.due(15_999));
        assertTrue(floor.due(16_000), "the RNR wait's end");

        rig.t.requester.onTimer(16_000);
        rig.t.requester.doWork(16_000); // the SEND goes again and its ACK timer is armed
        floor.clear();
        rig.t.sendState.noteDeadlines(floor);
        assertFalse(floor.due(16_000 + 8191));
        assertTrue(floor.due(16_000 + 8192));
    }

    /**
     * A QP that waits for the budget and is flushed (ERR) or reset leaves the budget's queue: its
     * packets go back without waking it, and it holds no place, nor a later wake, that QPs behind
     * it would wait for.
     */
    @Test
    void aWaitingQpFlushedOrResetLeavesTheBudgetsQueue() {
        EngineRig rig = new EngineRig(4).rts(PSN, 0, 7, 0);
        rig.postSend(1, 6 * EngineRig.MTU);
        rig.t.requester.doWork(0);
        assertTrue(rig.budget.isWaiting(rig.qp));
        rig.qp.state = QpState.ERR;
        rig.t.flush();
        assertFalse(rig.budget.isWaiting(rig.qp));
        assertEquals(0, rig.budget.inFlight());
        assertEquals(List.of(), rig.scheduled, "giving back its packets woke the QP being flushed");

        rig.rts(PSN, 0, 7, 0);
        rig.transport.take();
        rig.postSend(2, 6 * EngineRig.MTU);
        rig.t.requester.doWork(10);
        assertTrue(rig.budget.isWaiting(rig.qp));
        rig.t.requester.reset(PSN);
        assertFalse(rig.budget.isWaiting(rig.qp));
        assertEquals(0, rig.budget.inFlight());
        assertEquals(List.of(), rig.scheduled, "giving back its packets woke the QP being reset");
    }

    @Test
    void budgetIsChargedUpToTheQpsOwnPsnAndGivenBackOnGoBackN() {
        EngineRig rig = new EngineRig(4).rts(PSN, 0, 7, 0);
        rig.postSend(1, 6 * EngineRig.MTU);
        rig.t.requester.doWork(0);
        assertEquals(List.of("RC_SEND_FIRST 100", "RC_SEND_MIDDLE 101", "RC_SEND_MIDDLE 102",
            "RC_SEND_MIDDLE 103"), rig.transport.take());
        assertEquals(4, rig.budget.inFlight());
        assertTrue(rig.budget.isWaiting(rig.qp));

        rig.nak(102, NakCode.PSN_SEQUENCE_ERROR, 10); // 100, 101 acknowledged; 102, 103 dropped by the responder
        assertEquals(0, rig.budget.inFlight());
        assertEquals(List.of(rig.qp), rig.scheduled, "the freed packets wake the waiting QP once");
        assertFalse(rig.budget.isWaiting(rig.qp));

        rig.t.requester.doWork(20);
        assertEquals(List.of("RC_SEND_MIDDLE 102", "RC_SEND_MIDDLE 103", "RC_SEND_MIDDLE 104",
            "RC_SEND_LAST 105"), rig.transport.take());
        assertEquals(4, rig.budget.inFlight());
        rig.ack(105, 30);
        assertEquals(0, rig.budget.inFlight());
        assertEquals(List.of("1 SUCCESS SEND " + 6 * EngineRig.MTU), rig.sendCq.take());
    }

    @Test
    void timerStaysArmedWhileAReadIsOpenThoughTheBudgetBlocksTheRest() {
        EngineRig rig = new EngineRig(4).rts(PSN, 1, 7, 0);
        EngineRig.TestRegion local = new EngineRig.TestRegion(rig.keys, rig.pd, 4096);
        rig.postRead(1, local, 4 * EngineRig.MTU, 0x1000, 0x55); // holds 4 response PSNs: the whole budget
        rig.postSend(2, 10);
        rig.t.requester.doWork(0);
        assertEquals(List.of("RC_RDMA_READ_REQUEST 100"), rig.transport.take());
        assertTrue(rig.budget.isWaiting(rig.qp));
        assertTrue(rig.t.sendState.timerArmed, "the READ's responses may be lost: its timer runs");

        rig.t.requester.onTimer(8192); // no response came: the READ request goes again
        rig.t.requester.doWork(8192);
        assertEquals(List.of("RC_RDMA_READ_REQUEST 100"), rig.transport.take());
    }

    @Test
    void completerPairsReadResponsesWithTheirRequestInPsnOrder() {
        EngineRig rig = new EngineRig(256).rts(PSN, 0, 7, 0);
        EngineRig.TestRegion local = new EngineRig.TestRegion(rig.keys, rig.pd, 4096);
        int length = 2 * EngineRig.MTU + 88;
        rig.postRead(9, local, length, 0x1000, 0x55);
        rig.t.requester.doWork(0);
        assertEquals(List.of("RC_RDMA_READ_REQUEST 100"), rig.transport.take());
        byte[] first = bytes(EngineRig.MTU, 1);
        byte[] middle = bytes(EngineRig.MTU, 2);
        byte[] last = bytes(88, 3);

        rig.readResponse(Opcode.RC_RDMA_READ_RESPONSE_MIDDLE, 101, middle, 10); // 100 lost: ask again from it
        assertEquals(1, rig.counters.get(Counter.RCVD_SEQ_ERR));
        rig.t.requester.doWork(10);
        assertEquals(List.of("RC_RDMA_READ_REQUEST 100"), rig.transport.take());

        rig.readResponse(Opcode.RC_RDMA_READ_RESPONSE_FIRST, 100, first, 20);
        rig.readResponse(Opcode.RC_RDMA_READ_RESPONSE_FIRST, 100, first, 21); // a duplicate: dropped
        assertEquals(1, rig.counters.get(Counter.DROP_UNEXPECTED_RESPONSE));
        rig.readResponse(Opcode.RC_RDMA_READ_RESPONSE_MIDDLE, 101, middle, 22);
        assertEquals(List.of(), rig.sendCq.take());
        rig.readResponse(Opcode.RC_RDMA_READ_RESPONSE_LAST, 102, last, 23);
        assertEquals(List.of("9 SUCCESS RDMA_READ " + length), rig.sendCq.take());

        byte[] placed = new byte[length];
        local.view.getBytes(0, placed);
        byte[] expected = new byte[length];
        System.arraycopy(first, 0, expected, 0, first.length);
        System.arraycopy(middle, 0, expected, first.length, middle.length);
        System.arraycopy(last, 0, expected, 2 * EngineRig.MTU, last.length);
        assertArrayEquals(expected, placed);
        assertEquals(0, rig.t.sendState.outstandingReadAtomic);
    }

    /**
     * A READ the budget held back has its PSNs but was never sent: a READ response or an atomic
     * acknowledgement at those PSNs (forged: no responder was asked) is dropped like any response
     * to a PSN never sent. Taken, it would place its data, complete the READ and acknowledge the
     * SEND before it, and move the acknowledged PSN past the highest sent, which gives back to the
     * device's budget packets never charged.
     */
    @Test
    void aResponseForAReadNotYetSentIsDroppedAndChangesNothing() {
        EngineRig rig = new EngineRig(1).rts(PSN, 0, 7, 0);
        EngineRig.TestRegion local = new EngineRig.TestRegion(rig.keys, rig.pd, 4096);
        rig.postSend(1, 10);
        rig.postRead(2, local, 16, 0x1000, 0x55);
        rig.t.requester.doWork(0);
        assertEquals(List.of("RC_SEND_ONLY 100"), rig.transport.take(), "the budget holds the READ back");
        assertEquals(1, rig.budget.inFlight());

        rig.readResponse(Opcode.RC_RDMA_READ_RESPONSE_ONLY, 101, bytes(16, 7), 10);
        assertEquals(1, rig.counters.get(Counter.DROP_UNEXPECTED_RESPONSE));
        assertEquals(0, local.view.getByte(0), "nothing placed");
        assertEquals(List.of(), rig.sendCq.take(), "neither the SEND nor the READ completes");
        assertEquals(1, rig.budget.inFlight());
        assertEquals(QpState.RTS, rig.qp.state);

        rig.ack(100, 20); // the SEND's real ACK frees the budget: the READ goes
        rig.t.requester.doWork(20);
        assertEquals(List.of("RC_RDMA_READ_REQUEST 101"), rig.transport.take());
        assertEquals(List.of("1 SUCCESS SEND 10"), rig.sendCq.take());
    }

    private static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed * 31 + i);
        }
        return b;
    }
}
