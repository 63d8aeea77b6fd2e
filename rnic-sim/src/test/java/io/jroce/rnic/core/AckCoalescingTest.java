package io.jroce.rnic.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.jroce.stack.wire.AethSyndrome;
import io.jroce.stack.wire.NakCode;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.ParseResult;
import io.jroce.stack.wire.RocePacket;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.QpState;

/**
 * The responder's ACKs of one receive batch coalesce into the last (IBTA 9.7.5.1.1: an ACK
 * acknowledges every PSN up to its own): an ACK waits in the response queue for the pacer's turn,
 * which the I/O loop runs after the batch; a NAK keeps its place behind it; an ACK still queued
 * when the QP stops answering goes all the same. Built alone, see {@link EngineRig}.
 */
class AckCoalescingTest {
    private static final int EPSN = 1000;
    private static final byte[] PAYLOAD = new byte[64];

    private static EngineRig rig(int receives) {
        EngineRig rig = new EngineRig(256).rts(0, 0, 7, 0);
        rig.t.responder.reset(EPSN);
        EngineRig.TestRegion mr = new EngineRig.TestRegion(rig.keys, rig.pd, 64 * receives);
        for (int i = 0; i < receives; i++) {
            rig.postRecv(i, mr, 64);
        }
        return rig;
    }

    private static RocePacket packet(EngineRig rig, int index) {
        byte[] b = rig.transport.packets.get(index);
        RocePacket p = new RocePacket();
        assertEquals(ParseResult.OK, p.wrap(new UnsafeBuffer(b), 0, b.length));
        return p;
    }

    @Test
    void theAcksOfOneBatchCoalesceIntoOneForTheLastPsnWithItsMsn() {
        EngineRig rig = rig(3);
        for (int i = 0; i < 3; i++) {
            rig.request(Opcode.RC_SEND_ONLY, EPSN + i, PAYLOAD, 0); // each asks for an ACK
        }
        assertEquals(List.of(), rig.transport.take(), "no ACK leaves while the batch is handled");
        assertEquals(1, rig.pacerWakes, "one turn asked for, once");
        assertEquals(3, rig.recvCq.take().size(), "the three messages completed");

        rig.sendResponses();
        RocePacket ack = packet(rig, 0);
        assertEquals(AethSyndrome.ack(AethSyndrome.NO_CREDIT_COUNT), ack.aeth().syndrome());
        assertEquals(3, ack.aeth().msn(), "the MSN counts the three messages");
        assertEquals(List.of("RC_ACKNOWLEDGE " + (EPSN + 2)), rig.transport.take());
    }

    @Test
    void aBatchAfterThePacersTurnGetsItsOwnAck() {
        EngineRig rig = rig(2);
        rig.request(Opcode.RC_SEND_ONLY, EPSN, PAYLOAD, 0);
        rig.sendResponses();
        rig.request(Opcode.RC_SEND_ONLY, EPSN + 1, PAYLOAD, 0);
        rig.sendResponses();
        assertEquals(List.of("RC_ACKNOWLEDGE " + EPSN, "RC_ACKNOWLEDGE " + (EPSN + 1)), rig.transport.take());
    }

    @Test
    void aSequenceErrorNakFollowsTheAckQueuedBeforeIt() {
        EngineRig rig = rig(2);
        rig.request(Opcode.RC_SEND_ONLY, EPSN, PAYLOAD, 0);
        rig.request(Opcode.RC_SEND_ONLY, EPSN + 5, PAYLOAD, 0); // PSNs EPSN+1..+4 were lost
        rig.sendResponses();
        assertEquals(NakCode.PSN_SEQUENCE_ERROR, packet(rig, 1).aeth().nakCode());
        assertEquals(List.of("RC_ACKNOWLEDGE " + EPSN, "RC_ACKNOWLEDGE " + (EPSN + 1)), rig.transport.take(),
            "the ACK, then the NAK for the PSN expected");
    }

    @Test
    void anAckOwedWhenTheQpStopsAnsweringStillGoes() {
        EngineRig rig = rig(1);
        rig.request(Opcode.RC_SEND_ONLY, EPSN, PAYLOAD, 0);
        assertEquals(1, rig.recvCq.take().size(), "the application may poll the completion now");
        rig.qp.state = QpState.ERR; // and move the QP to ERR before the pacer's turn
        rig.sendResponses();
        assertEquals(List.of("RC_ACKNOWLEDGE " + EPSN), rig.transport.take(),
            "the request was executed: its requester hears so");
    }

    @Test
    void aClassTwoErrorNakFollowsTheAckOwedEvenWithAReadQueued() {
        EngineRig rig = rig(1);
        rig.qp.accessFlags = AccessFlags.REMOTE_READ;
        EngineRig.TestRegion mr = new EngineRig.TestRegion(rig.keys, rig.pd, 64);
        rig.request(Opcode.RC_SEND_ONLY, EPSN, PAYLOAD, 0);
        rig.readRequest(EPSN + 1, mr.address(), mr.rkey(), 64, 0); // its response waits for the pacer too
        rig.request(Opcode.RC_SEND_MIDDLE, EPSN + 2, PAYLOAD, 0); // no FIRST before it: invalid request
        assertEquals(NakCode.INVALID_REQUEST, packet(rig, 1).aeth().nakCode());
        assertEquals(List.of("RC_ACKNOWLEDGE " + EPSN, "RC_ACKNOWLEDGE " + (EPSN + 2)), rig.transport.take(),
            "the SEND's ACK, then the NAK; the READ's response is not sent from a QP in error");
    }

    @Test
    void aDestroyedQpSendsTheAckItOwes() {
        EngineRig rig = rig(1);
        rig.request(Opcode.RC_SEND_ONLY, EPSN, PAYLOAD, 0);
        assertEquals(1, rig.t.responder.sendOwedAcknowledgements(), "what RnicEngine.unregister calls");
        assertEquals(0, rig.t.responder.sendOwedAcknowledgements(), "once");
        assertEquals(List.of("RC_ACKNOWLEDGE " + EPSN), rig.transport.take());
    }
}
