package io.jroce.rnic.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.jroce.stack.wire.NakCode;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.ParseResult;
import io.jroce.stack.wire.RocePacket;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.QpState;

/**
 * Issue 11, defect 5: READ responses are built a quota at a time by the {@link ResponsePacer}, in
 * PSN order with the responder's other responses; max_dest_rd_atomic bounds the READs being
 * answered; a replay restarts at the PSN asked for; and each response checks its key again.
 */
class ResponsePacingTest {
    private static final int EPSN = 1000;
    private static final int MTU = EngineRig.MTU;

    private static EngineRig rig() {
        EngineRig rig = new EngineRig(256).rts(0, 0, 7, 0);
        rig.qp.accessFlags = AccessFlags.REMOTE_READ;
        rig.t.responder.reset(EPSN);
        return rig;
    }

    private static List<String> range(String opcode, int from, int to) {
        List<String> out = new ArrayList<>();
        for (int psn = from; psn <= to; psn++) {
            out.add(opcode + " " + psn);
        }
        return out;
    }

    /** The NAK code of the last packet sent. */
    private static NakCode lastNak(EngineRig rig) {
        byte[] b = rig.transport.packets.get(rig.transport.packets.size() - 1);
        RocePacket p = new RocePacket();
        assertEquals(ParseResult.OK, p.wrap(new UnsafeBuffer(b), 0, b.length));
        return p.aeth().nakCode();
    }

    @Test
    void aLargeReadIsAnsweredAQuotaPerTurnAndResumesOnTheNextTurns() {
        EngineRig rig = rig();
        int packets = 16 * 1024; // 4 MiB at MTU 256
        EngineRig.TestRegion mr = new EngineRig.TestRegion(rig.keys, rig.pd, packets * MTU);
        rig.readRequest(EPSN, mr.address(), mr.rkey(), packets * MTU, 0);
        assertEquals(List.of(), rig.transport.take(), "nothing is built while the request is received");
        assertEquals(1, rig.pacerWakes, "the pacer asked the I/O loop for a turn");

        int quota = ResponsePacer.TURN_QUOTA;
        assertTrue(rig.pacer.run(quota), "responses remain after one turn");
        List<String> first = new ArrayList<>(List.of("RC_RDMA_READ_RESPONSE_FIRST " + EPSN));
        first.addAll(range("RC_RDMA_READ_RESPONSE_MIDDLE", EPSN + 1, EPSN + quota - 1));
        assertEquals(first, rig.transport.take());
        assertTrue(rig.pacer.run(quota));
        assertEquals(range("RC_RDMA_READ_RESPONSE_MIDDLE", EPSN + quota, EPSN + 2 * quota - 1), rig.transport.take());

        // A SEND after the READ is acknowledged after the READ's last response, in PSN order.
        rig.qp.accessFlags = AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE;
        int writePsn = EPSN + packets;
        rig.writeOnly(writePsn, mr.address(), mr.rkey(), new byte[8], 0);
        rig.sendResponses();
        List<String> rest = rig.transport.take();
        assertEquals(packets - 2 * quota + 1, rest.size());
        assertEquals("RC_RDMA_READ_RESPONSE_LAST " + (EPSN + packets - 1), rest.get(rest.size() - 2));
        assertEquals("RC_ACKNOWLEDGE " + writePsn, rest.get(rest.size() - 1));
        assertEquals(0, rig.pacer.waiting());
        assertEquals(QpState.RTS, rig.qp.state);
    }

    @Test
    void responsesOfTwoQpsShareTheTurnRoundRobin() {
        EngineRig rig = rig();
        EngineRig other = rig();
        EngineRig.TestRegion mr = new EngineRig.TestRegion(rig.keys, rig.pd, 256 * MTU);
        EngineRig.TestRegion mr2 = new EngineRig.TestRegion(other.keys, other.pd, 256 * MTU);
        rig.readRequest(EPSN, mr.address(), mr.rkey(), 256 * MTU, 0);
        other.readRequest(EPSN, mr2.address(), mr2.rkey(), 256 * MTU, 0);
        other.pacer.remove(other.t.responder); // both responders on one device's pacer
        rig.pacer.add(other.t.responder);
        rig.pacer.run(ResponsePacer.SLICE + 1);
        assertEquals(ResponsePacer.SLICE, rig.transport.take().size());
        assertEquals(1, other.transport.take().size(), "the second responder's turn comes within the same turn");
        rig.pacer.run(ResponsePacer.TURN_QUOTA);
        assertEquals(ResponsePacer.TURN_QUOTA / 2, rig.transport.take().size());
        assertEquals(ResponsePacer.TURN_QUOTA / 2, other.transport.take().size());
    }

    @Test
    void aReadBeyondMaxDestRdAtomicIsNakedInvalidRequest() {
        EngineRig rig = rig();
        rig.qp.maxDestRdAtomic = 2;
        EngineRig.TestRegion mr = new EngineRig.TestRegion(rig.keys, rig.pd, 4096);
        rig.readRequest(EPSN, mr.address(), mr.rkey(), 2 * MTU, 0);
        rig.readRequest(EPSN + 2, mr.address(), mr.rkey(), 2 * MTU, 0);
        rig.sendResponses();
        assertEquals(4, rig.transport.take().size());
        // Two READs answered: their resources are free again.
        rig.readRequest(EPSN + 4, mr.address(), mr.rkey(), 2 * MTU, 0);
        rig.readRequest(EPSN + 6, mr.address(), mr.rkey(), 2 * MTU, 0);
        rig.readRequest(EPSN + 8, mr.address(), mr.rkey(), 2 * MTU, 0);
        assertEquals(NakCode.INVALID_REQUEST, lastNak(rig));
        assertEquals(List.of("RC_ACKNOWLEDGE " + (EPSN + 8)), rig.transport.take());
        rig.sendResponses();
        assertEquals(List.of(), rig.transport.take(), "a QP in error sends nothing it had queued");
        assertEquals(QpState.ERR, rig.qp.state);
    }

    @Test
    void noReadIsAnsweredWithMaxDestRdAtomicZero() {
        EngineRig rig = rig();
        rig.qp.maxDestRdAtomic = 0;
        EngineRig.TestRegion mr = new EngineRig.TestRegion(rig.keys, rig.pd, 4096);
        rig.readRequest(EPSN, mr.address(), mr.rkey(), 16, 0);
        assertEquals(NakCode.INVALID_REQUEST, lastNak(rig));
        assertEquals(List.of("RC_ACKNOWLEDGE " + EPSN), rig.transport.take());
        rig.sendResponses();
        assertEquals(List.of(), rig.transport.take());
        assertEquals(QpState.ERR, rig.qp.state);
    }

    @Test
    void aReplayFromAMiddlePsnRestartsThereWithoutRebuildingTheRest() {
        EngineRig rig = rig();
        EngineRig.TestRegion mr = new EngineRig.TestRegion(rig.keys, rig.pd, 8 * MTU);
        rig.readRequest(EPSN, mr.address(), mr.rkey(), 8 * MTU, 0);
        rig.pacer.run(4);
        assertEquals(List.of("RC_RDMA_READ_RESPONSE_FIRST 1000", "RC_RDMA_READ_RESPONSE_MIDDLE 1001",
            "RC_RDMA_READ_RESPONSE_MIDDLE 1002", "RC_RDMA_READ_RESPONSE_MIDDLE 1003"), rig.transport.take());
        rig.readRequest(EPSN + 2, mr.address() + 2 * MTU, mr.rkey(), 6 * MTU, 0); // 1002 was lost
        rig.sendResponses();
        List<String> expected = new ArrayList<>(List.of("RC_RDMA_READ_RESPONSE_FIRST 1002"));
        expected.addAll(range("RC_RDMA_READ_RESPONSE_MIDDLE", 1003, 1006));
        expected.add("RC_RDMA_READ_RESPONSE_LAST 1007");
        assertEquals(expected, rig.transport.take());
        assertEquals(QpState.RTS, rig.qp.state);
    }

    @Test
    void eachResponseChecksItsKeyAgain() {
        EngineRig rig = rig();
        EngineRig.TestRegion mr = new EngineRig.TestRegion(rig.keys, rig.pd, 8 * MTU);
        rig.readRequest(EPSN, mr.address(), mr.rkey(), 8 * MTU, 0);
        rig.pacer.run(4);
        assertEquals(4, rig.transport.take().size());
        rig.keys.release(mr.rkey()); // the region is deregistered while its READ is answered
        rig.sendResponses();
        assertEquals(NakCode.REMOTE_ACCESS_ERROR, lastNak(rig));
        assertEquals(List.of("RC_ACKNOWLEDGE 1004"), rig.transport.take());
        assertEquals(QpState.ERR, rig.qp.state);
        assertEquals(1, rig.fatalErrors);
    }

    @Test
    void theAcknowledgementOfAnOlderDuplicateDoesNotReplaceANewerOneQueued() {
        EngineRig rig = rig();
        rig.qp.accessFlags = AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE;
        EngineRig.TestRegion mr = new EngineRig.TestRegion(rig.keys, rig.pd, 4 * MTU);
        rig.readRequest(EPSN, mr.address(), mr.rkey(), 2 * MTU, 0);
        rig.writeOnly(EPSN + 2, mr.address(), mr.rkey(), new byte[8], 0); // its ACK waits behind the READ
        rig.writeOnly(EPSN - 1, mr.address(), mr.rkey(), new byte[8], 0); // a duplicate of an older WRITE
        rig.sendResponses();
        // The ACK of EPSN + 2 covers the duplicate; one of EPSN - 1 in its place would leave the
        // requester without the acknowledgement of EPSN + 2 until its timer expired.
        assertEquals(List.of("RC_RDMA_READ_RESPONSE_FIRST 1000", "RC_RDMA_READ_RESPONSE_LAST 1001",
            "RC_ACKNOWLEDGE 1002"), rig.transport.take());
        assertEquals(QpState.RTS, rig.qp.state);
    }
}
