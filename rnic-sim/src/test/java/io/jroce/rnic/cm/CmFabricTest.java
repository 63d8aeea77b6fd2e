package io.jroce.rnic.cm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.jroce.stack.mad.CmDrepFlyweight;
import io.jroce.stack.mad.CmDreqFlyweight;
import io.jroce.stack.mad.CmMraFlyweight;
import io.jroce.stack.mad.CmPathFlyweight;
import io.jroce.stack.mad.CmRejFlyweight;
import io.jroce.stack.mad.CmRepFlyweight;
import io.jroce.stack.mad.CmReqFlyweight;
import io.jroce.stack.mad.CmRtuFlyweight;
import io.jroce.stack.mad.CmTransactionId;
import io.jroce.stack.mad.MadHeaderFlyweight;
import io.jroce.verbs.Gid;

/**
 * Two devices' connection managers on the simulated fabric, with a 1 ms tick: the exact CM messages
 * and their timing.
 */
class CmFabricTest extends CmFabricRig {
    private static final long SERVICE = ConnectionManager.tcpServiceId(7174);
    private static final int QPN_A = 0x11, QPN_B = 0x22, PSN_A = 0xABCDE, PSN_B = 0x12345;

    private final Recorder eventsA = new Recorder();
    private final Recorder eventsB = new Recorder();

    /** Records events; by default the passive side accepts and the active side answers REP with RTU. */
    private final class Recorder implements CmEvents {
        final List<String> events = new ArrayList<>();
        final List<CmConnection> connections = new ArrayList<>();
        ConnectRequest request;
        ConnectReply reply;
        boolean answerRequest = true;
        boolean rejectRequest;
        ConnectionManager cm;
        boolean disconnectOnDreq = true;
        boolean rejectReply;
        boolean answerReply = true;

        @Override
        public void onConnectRequest(CmConnection c, ConnectRequest r) {
            events.add("CONNECT_REQUEST");
            connections.add(c);
            request = r;
            if (rejectRequest) {
                cm.reject(c, new byte[] {9});
            } else if (answerRequest) {
                // Each connection its own QP (QPN_B for the first): the peer keys stale connections on it.
                cm.accept(c, new AcceptParams(QPN_B + connections.size() - 1, PSN_B, 1, 1, 7, new byte[] {1, 2, 3}));
            }
        }

        @Override
        public void onReply(CmConnection c, ConnectReply r) {
            events.add("REPLY");
            reply = r;
            if (rejectReply) {
                cm.reject(c, new byte[0]);
            } else if (answerReply) {
                cm.ready(c);
            }
        }

        @Override
        public void onEstablished(CmConnection c) {
            events.add("ESTABLISHED");
        }

        @Override
        public void onRejected(CmConnection c, int reason) {
            events.add("REJECTED " + reason);
        }

        @Override
        public void onUnreachable(CmConnection c) {
            events.add("UNREACHABLE@" + fabric.nowNs());
        }

        @Override
        public void onDisconnected(CmConnection c) {
            events.add("DISCONNECTED");
            if (disconnectOnDreq && c.state() == CmState.DREQ_RCVD) {
                cm.disconnect(c);
            }
        }

        @Override
        public void onTimeWaitExit(CmConnection c) {
            events.add("TIMEWAIT_EXIT");
        }
    }

    CmFabricTest() {
        eventsA.cm = cmA;
        eventsB.cm = cmB;
    }

    private ConnectParams params() {
        return params(QPN_A);
    }

    /** A REQ from QP {@code qpn}: each connection needs its own QP (the peer keys stale connections on it). */
    private ConnectParams params(int qpn) {
        byte[] pd = new byte[40];
        pd[1] = 0x40;
        pd[2] = (byte) 0xC3; // the CMA header's source port 0xC350 = 50000
        pd[3] = 0x50;
        pd[39] = 0x77;
        return new ConnectParams(SERVICE, A, B, qpn, PSN_A, 1, 1, 7, 7, 3, pd);
    }

    private CmConnection[] connect() {
        CmConnection[] c = new CmConnection[1];
        fabric.execute(() -> c[0] = cmA.connect(params(), eventsA));
        fabric.runFor(10 * MS);
        return c;
    }

    /**
     * A timer armed when a MAD arrived (1 us after a tick, the fabric's latency) expires at the first
     * tick after its deadline: {@code expected} plus less than one 1 ms tick.
     */
    private static void assertWithinATick(long expected, long actual, String what) {
        assertTrue(actual >= expected && actual < expected + MS,
            what + ": expected " + expected + " ns to the tick, was " + actual);
    }

    @Test
    void reqRepRtuThenDreqDrepAndTimeWaitWithTheExactMessages() {
        cmB.listen(SERVICE, eventsB);
        CmConnection a = connect()[0];

        assertEquals(List.of(CmState.ESTABLISHED), List.of(a.state()));
        assertEquals(List.of("REPLY", "ESTABLISHED"), eventsA.events);
        assertEquals(List.of("CONNECT_REQUEST", "ESTABLISHED"), eventsB.events);
        assertEquals(List.of(MadHeaderFlyweight.ATTR_REQ, MadHeaderFlyweight.ATTR_REP, MadHeaderFlyweight.ATTR_RTU),
            wire.stream().map(Mad::attribute).toList());

        CmReqFlyweight req = new CmReqFlyweight().wrap(wire.get(0).buffer(), 0);
        long tid = wire.get(0).tid();
        assertEquals(a.localCommId(), req.localCommId());
        assertEquals(CmTransactionId.commId(tid), a.localCommId(), "cm_form_tid: the comm ID in the TID's low half");
        assertEquals(SERVICE, req.serviceId());
        assertEquals(cmA.caGuid(), req.localCaGuid());
        assertEquals(QPN_A, req.localQpn());
        assertEquals(PSN_A, req.startingPsn());
        assertEquals(20, req.remoteCmResponseTimeout());
        assertEquals(20, req.localCmResponseTimeout());
        assertEquals(15, req.maxCmRetries());
        assertEquals(3, req.pathMtu());
        assertEquals(0xFFFF, req.partitionKey());
        CmPathFlyweight path = req.primaryPath(new CmPathFlyweight());
        assertEquals(0xFFFF, path.localPortLid());
        assertEquals(0xFFFF, path.remotePortLid());
        assertEquals(19, path.localAckTimeout());
        assertEquals(64, path.hopLimit());
        assertEquals((50000 * 31 + 7174) & 0xFFFFF, path.flowLabel(), "cma_get_roce_udp_flow_label");
        byte[] gid = new byte[16];
        path.getLocalPortGid(gid, 0);
        assertArrayEquals(A, gid);
        path.getRemotePortGid(gid, 0);
        assertArrayEquals(B, gid);

        ConnectRequest r = eventsB.request;
        assertEquals(QPN_A, r.remoteQpn());
        assertEquals(PSN_A, r.startingPsn());
        assertEquals(0x77, r.privateData()[39], "the private data, CMA header first");
        assertEquals(cmA.caGuid(), r.remoteCaGuid());

        CmConnection b = eventsB.connections.get(0);
        CmRepFlyweight rep = new CmRepFlyweight().wrap(wire.get(1).buffer(), 0);
        assertEquals(tid, wire.get(1).tid(), "the REP carries the REQ's TID");
        assertEquals(b.localCommId(), rep.localCommId());
        assertEquals(a.localCommId(), rep.remoteCommId());
        assertEquals(QPN_B, rep.localQpn());
        assertEquals(PSN_B, rep.startingPsn());
        assertEquals(cmB.caGuid(), rep.localCaGuid());
        assertNotEquals(cmA.caGuid(), cmB.caGuid());
        assertEquals(QPN_B, eventsA.reply.remoteQpn());
        assertEquals(PSN_B, eventsA.reply.startingPsn());
        assertEquals(3, eventsA.reply.privateData()[2]);

        CmRtuFlyweight rtu = new CmRtuFlyweight().wrap(wire.get(2).buffer(), 0);
        assertEquals(tid, wire.get(2).tid());
        assertEquals(a.localCommId(), rtu.localCommId());
        assertEquals(b.localCommId(), rtu.remoteCommId());
        assertEquals(QPN_B, a.remoteQpn());
        assertEquals(QPN_A, b.remoteQpn());

        fabric.execute(() -> cmA.disconnect(a));
        fabric.runFor(10 * MS);
        assertEquals(CmState.TIMEWAIT, a.state());
        assertEquals(CmState.TIMEWAIT, b.state());
        CmDreqFlyweight dreq = new CmDreqFlyweight().wrap(wire.get(3).buffer(), 0);
        assertEquals(MadHeaderFlyweight.ATTR_DREQ, wire.get(3).attribute());
        assertEquals(tid, wire.get(3).tid(), "the active side's DREQ: cm_form_tid of its own ID, the REQ's TID");
        assertEquals(a.localCommId(), dreq.localCommId());
        assertEquals(b.localCommId(), dreq.remoteCommId());
        assertEquals(QPN_B, dreq.remoteQpn());
        CmDrepFlyweight drep = new CmDrepFlyweight().wrap(wire.get(4).buffer(), 0);
        assertEquals(MadHeaderFlyweight.ATTR_DREP, wire.get(4).attribute());
        assertEquals(tid, wire.get(4).tid(), "the DREP echoes the DREQ's TID");
        assertEquals(b.localCommId(), drep.localCommId());
        assertEquals(a.localCommId(), drep.remoteCommId());

        long drepAt = wire.get(4).atNs();
        fabric.runFor(drepAt + 2047 * MS - fabric.nowNs());
        assertEquals(1, cmA.connections(), "TimeWait lasts conv(packet life + 1) = 2048 ms");
        assertEquals(1, cmB.connections());
        fabric.runFor(10 * MS);
        assertEquals(0, cmA.connections());
        assertEquals(0, cmB.connections());
        assertEquals("TIMEWAIT_EXIT", eventsA.events.get(eventsA.events.size() - 1));
        assertEquals(List.of("CONNECT_REQUEST", "ESTABLISHED", "DISCONNECTED", "TIMEWAIT_EXIT"), eventsB.events);
        assertTrue(fabric.nowNs() - drepAt >= 2048 * MS);
        assertEquals(5, wire.size(), "nothing retransmitted");
    }

    @Test
    void aLostReqIsSentAgainAfterExactly6144Ms() {
        cmB.listen(SERVICE, eventsB);
        drop = m -> m.attribute() == MadHeaderFlyweight.ATTR_REQ && sent(MadHeaderFlyweight.ATTR_REQ).size() == 1;
        CmConnection a = connect()[0];
        assertEquals(CmState.REQ_SENT, a.state());
        fabric.runFor(6200 * MS);
        List<Mad> reqs = sent(MadHeaderFlyweight.ATTR_REQ);
        assertEquals(2, reqs.size());
        assertEquals(6144 * MS, reqs.get(1).atNs() - reqs.get(0).atNs(), "2 * conv(18) + conv(20)");
        assertArrayEquals(reqs.get(0).bytes(), reqs.get(1).bytes(), "the same REQ");
        assertEquals(CmState.ESTABLISHED, a.state());
        assertEquals(1L, count(devA, "cm_retransmits"));
    }

    @Test
    void aReqNeverAnsweredIsSent16TimesThenUnreachable() {
        cmB.listen(SERVICE, eventsB);
        drop = m -> true;
        connect();
        long start = sent(MadHeaderFlyweight.ATTR_REQ).get(0).atNs();
        fabric.runFor(16 * 6144 * MS + 100 * MS);
        List<Mad> reqs = sent(MadHeaderFlyweight.ATTR_REQ);
        assertEquals(16, reqs.size(), "the REQ and 15 retries");
        for (int i = 1; i < reqs.size(); i++) {
            assertEquals(start + i * 6144 * MS, reqs.get(i).atNs());
        }
        assertEquals(List.of("UNREACHABLE@" + (start + 16 * 6144 * MS)), eventsA.events);
        assertEquals(0, cmA.connections());
        assertEquals(15L, count(devA, "cm_retransmits"));
    }

    @Test
    void aReqForNoListenerGetsRej8AtOnce() {
        connect();
        assertEquals(List.of("REJECTED 8"), eventsA.events);
        Mad m = sent(MadHeaderFlyweight.ATTR_REJ).get(0);
        CmRejFlyweight rej = new CmRejFlyweight().wrap(m.buffer(), 0);
        assertEquals(0, rej.localCommId(), "no CM ID answered (cm_issue_rej)");
        assertEquals(wire.get(0).tid(), m.tid());
        assertEquals(CmRejFlyweight.REJECTED_REQ, rej.messageRejected());
        assertEquals(8, rej.reason());
        assertEquals(0, cmA.connections());
        assertEquals(0, cmB.connections());
    }

    @Test
    void aConsumerRejectIsRej28() {
        eventsB.rejectRequest = true;
        cmB.listen(SERVICE, eventsB);
        CmConnection a = connect()[0];
        assertEquals(List.of("REJECTED 28"), eventsA.events);
        assertEquals(CmState.IDLE, a.state());
        CmRejFlyweight rej = new CmRejFlyweight().wrap(sent(MadHeaderFlyweight.ATTR_REJ).get(0).buffer(), 0);
        assertEquals(eventsB.connections.get(0).localCommId(), rej.localCommId());
        assertEquals(a.localCommId(), rej.remoteCommId());
        assertEquals(9, rej.buffer().getByte(CmRejFlyweight.PRIVATE_DATA_OFFSET));
        assertEquals(0, cmB.connections());
    }

    @Test
    void anActiveConsumerRejectingTheRepSendsRej28AndThePassiveSideForgetsTheConnection() {
        eventsA.rejectReply = true;
        cmB.listen(SERVICE, eventsB);
        CmConnection a = connect()[0];
        CmConnection b = eventsB.connections.get(0);
        Mad m = sent(MadHeaderFlyweight.ATTR_REJ).get(0);
        CmRejFlyweight rej = new CmRejFlyweight().wrap(m.buffer(), 0);
        assertEquals(wire.get(0).tid(), m.tid());
        assertEquals(a.localCommId(), rej.localCommId());
        assertEquals(b.localCommId(), rej.remoteCommId());
        assertEquals(CmRejFlyweight.REJECTED_REP, rej.messageRejected());
        assertEquals(28, rej.reason());
        assertEquals(List.of("CONNECT_REQUEST", "REJECTED 28"), eventsB.events);
        assertEquals(CmState.IDLE, a.state());
        assertEquals(CmState.IDLE, b.state());
        assertEquals(0, cmA.connections());
        assertEquals(0, cmB.connections());
        fabric.runFor(5000 * MS);
        assertEquals(1, sent(MadHeaderFlyweight.ATTR_REP).size(), "the REP's retransmission was cancelled");
    }

    @Test
    void aRepeatedReqWhileUnansweredGetsAnMraThatHoldsTheActiveSide() {
        eventsB.answerRequest = false;
        cmB.listen(SERVICE, eventsB);
        CmConnection a = connect()[0];
        fabric.runFor(6144 * MS);
        List<Mad> mras = sent(MadHeaderFlyweight.ATTR_MRA);
        assertEquals(1, mras.size());
        CmMraFlyweight mra = new CmMraFlyweight().wrap(mras.get(0).buffer(), 0);
        assertEquals(CmMraFlyweight.MRAED_REQ, mra.messageMraed());
        assertEquals(24, mra.serviceTimeout());
        assertEquals(a.localCommId(), mra.remoteCommId());
        assertEquals(CmState.MRA_REQ_RCVD, a.state());
        assertEquals(CmState.MRA_REQ_SENT, eventsB.connections.get(0).state());
        assertEquals(List.of("CONNECT_REQUEST"), eventsB.events, "a repeat makes no new connection");

        // cm_mra_handler: the next REQ waits conv(24) + conv(19) = 67584 ms after the MRA.
        long mraAt = mras.get(0).atNs();
        fabric.runFor(67584 * MS + 10 * MS);
        List<Mad> reqs = sent(MadHeaderFlyweight.ATTR_REQ);
        assertEquals(3, reqs.size());
        assertWithinATick(67584 * MS, reqs.get(2).atNs() - mraAt, "conv(24) + conv(19) from the MRA's arrival");
        AcceptParams accept = new AcceptParams(QPN_B, PSN_B, 1, 1, 7, new byte[0]);
        fabric.execute(() -> cmB.accept(eventsB.connections.get(0), accept));
        fabric.runFor(10 * MS);
        assertEquals(CmState.ESTABLISHED, a.state());
    }

    @Test
    void aRepeatedRepAfterTheRtuGetsTheRtuAgain() {
        cmB.listen(SERVICE, eventsB);
        drop = m -> m.attribute() == MadHeaderFlyweight.ATTR_RTU && sent(MadHeaderFlyweight.ATTR_RTU).size() == 1;
        CmConnection a = connect()[0];
        CmConnection b = eventsB.connections.get(0);
        assertEquals(CmState.REP_SENT, b.state());
        fabric.runFor(4100 * MS);
        List<Mad> reps = sent(MadHeaderFlyweight.ATTR_REP);
        assertEquals(2, reps.size());
        assertWithinATick(4096 * MS, reps.get(1).atNs() - reps.get(0).atNs(),
            "conv(the REQ's local CM response timeout 20)");
        List<Mad> rtus = sent(MadHeaderFlyweight.ATTR_RTU);
        assertEquals(2, rtus.size());
        assertArrayEquals(rtus.get(0).bytes(), rtus.get(1).bytes());
        assertEquals(CmState.ESTABLISHED, b.state());
        assertEquals(List.of("REPLY", "ESTABLISHED"), eventsA.events, "the repeat is not reported");
        assertEquals(CmState.ESTABLISHED, a.state());
    }

    @Test
    void aRepeatedRepBeforeTheConsumerAnsweredGetsAnMraThatHoldsThePassiveSide() {
        eventsA.answerReply = false;
        cmB.listen(SERVICE, eventsB);
        CmConnection a = connect()[0];
        CmConnection b = eventsB.connections.get(0);
        assertEquals(CmState.REP_RCVD, a.state());
        fabric.runFor(4100 * MS);
        List<Mad> mras = sent(MadHeaderFlyweight.ATTR_MRA);
        assertEquals(1, mras.size());
        CmMraFlyweight mra = new CmMraFlyweight().wrap(mras.get(0).buffer(), 0);
        assertEquals(CmMraFlyweight.MRAED_REP, mra.messageMraed());
        assertEquals(a.localCommId(), mra.localCommId());
        assertEquals(b.localCommId(), mra.remoteCommId());
        assertEquals(wire.get(0).tid(), mras.get(0).tid());
        assertEquals(CmState.MRA_REP_SENT, a.state());
        assertEquals(CmState.MRA_REP_RCVD, b.state());
        assertEquals(List.of("REPLY"), eventsA.events, "the repeat is not reported");

        fabric.runFor(67584 * MS + 10 * MS);
        List<Mad> reps = sent(MadHeaderFlyweight.ATTR_REP);
        assertEquals(3, reps.size());
        assertWithinATick(67584 * MS, reps.get(2).atNs() - mras.get(0).atNs(), "conv(24) + conv(19) after the MRA");
        fabric.execute(() -> cmA.ready(a));
        fabric.runFor(10 * MS);
        assertEquals(CmState.ESTABLISHED, a.state());
        assertEquals(CmState.ESTABLISHED, b.state());
    }

    @Test
    void aDreqNeverAnsweredIsSent16TimesThenTheConnectionGoesThroughTimeWait() {
        cmB.listen(SERVICE, eventsB);
        CmConnection a = connect()[0];
        drop = m -> m.attribute() == MadHeaderFlyweight.ATTR_DREQ;
        fabric.execute(() -> cmA.disconnect(a));
        fabric.runFor(16 * 6144 * MS + 10 * MS);
        List<Mad> dreqs = sent(MadHeaderFlyweight.ATTR_DREQ);
        assertEquals(16, dreqs.size(), "the DREQ and the REQ's 15 retries, at the REQ's interval");
        for (int i = 1; i < dreqs.size(); i++) {
            assertEquals(dreqs.get(0).atNs() + i * 6144 * MS, dreqs.get(i).atNs());
            assertArrayEquals(dreqs.get(0).bytes(), dreqs.get(i).bytes());
        }
        assertEquals(CmState.TIMEWAIT, a.state());
        assertEquals(List.of("REPLY", "ESTABLISHED", "DISCONNECTED"), eventsA.events);
        fabric.runFor(2048 * MS + 10 * MS);
        assertEquals(List.of("REPLY", "ESTABLISHED", "DISCONNECTED", "TIMEWAIT_EXIT"), eventsA.events);
        assertEquals(0, cmA.connections());
        assertEquals(CmState.ESTABLISHED, eventsB.connections.get(0).state(), "B never heard of it");
    }

    @Test
    void aLostDrepIsAnsweredAgainWhenTheDreqIsResent() {
        cmB.listen(SERVICE, eventsB);
        CmConnection a = connect()[0];
        drop = m -> m.attribute() == MadHeaderFlyweight.ATTR_DREP && sent(MadHeaderFlyweight.ATTR_DREP).size() == 1;
        fabric.execute(() -> cmA.disconnect(a));
        fabric.runFor(100 * MS);
        assertEquals(CmState.DREQ_SENT, a.state());
        assertEquals(CmState.TIMEWAIT, eventsB.connections.get(0).state());
        fabric.runFor(6144 * MS);
        List<Mad> dreps = sent(MadHeaderFlyweight.ATTR_DREP);
        assertEquals(2, dreps.size());
        // B left TimeWait after 2048 ms: the second DREP is cm_issue_drep's, for a connection it no longer knows.
        CmDrepFlyweight drep = new CmDrepFlyweight().wrap(dreps.get(1).buffer(), 0);
        assertEquals(eventsB.connections.get(0).localCommId(), drep.localCommId());
        assertEquals(a.localCommId(), drep.remoteCommId());
        assertEquals(CmState.TIMEWAIT, a.state());
    }

    @Test
    void aDreqForAnUnknownConnectionGetsADrep() {
        byte[] mad = new byte[256];
        UnsafeBuffer buf = new UnsafeBuffer(mad);
        new MadHeaderFlyweight().wrap(buf, 0).cmSend(MadHeaderFlyweight.ATTR_DREQ, 0x1234_5678_9ABCL);
        new CmDreqFlyweight().wrap(buf, 0).localCommId(0x1111).remoteCommId(0x2222).remoteQpn(5);
        fabric.execute(() -> devA.gsi().send(buf, 0, A, B, 4791));
        fabric.runFor(10 * MS);
        Mad m = sent(MadHeaderFlyweight.ATTR_DREP).get(0);
        CmDrepFlyweight drep = new CmDrepFlyweight().wrap(m.buffer(), 0);
        assertEquals(0x2222, drep.localCommId());
        assertEquals(0x1111, drep.remoteCommId());
        assertEquals(0x1234_5678_9ABCL, m.tid());
        assertEquals(1L, count(devA, "cm_drop_unmatched"), "A knows no such connection either");
    }

    @Test
    void aDreqForAnotherQpIsIgnored() {
        cmB.listen(SERVICE, eventsB);
        CmConnection a = connect()[0];
        CmConnection b = eventsB.connections.get(0);
        byte[] mad = new byte[256];
        UnsafeBuffer buf = new UnsafeBuffer(mad);
        new MadHeaderFlyweight().wrap(buf, 0).cmSend(MadHeaderFlyweight.ATTR_DREQ, 1);
        new CmDreqFlyweight().wrap(buf, 0).localCommId(a.localCommId()).remoteCommId(b.localCommId())
            .remoteQpn(QPN_B + 1);
        fabric.execute(() -> devA.gsi().send(buf, 0, A, B, 4791));
        fabric.runFor(10 * MS);
        assertEquals(CmState.ESTABLISHED, b.state());
        assertEquals(1L, count(devB, "cm_drop_unexpected"));
    }

    @Test
    void aRepeatedReqOfAConnectionInTimeWaitGetsRej10() {
        cmB.listen(SERVICE, eventsB);
        CmConnection a = connect()[0];
        fabric.execute(() -> cmA.disconnect(a));
        fabric.runFor(10 * MS);
        CmConnection b = eventsB.connections.get(0);
        assertEquals(CmState.TIMEWAIT, b.state());
        byte[] oldReq = wire.get(0).bytes();
        fabric.execute(() -> devA.gsi().send(new UnsafeBuffer(oldReq), 0, A, B, 4791));
        fabric.runFor(10 * MS);
        Mad m = sent(MadHeaderFlyweight.ATTR_REJ).get(0);
        CmRejFlyweight rej = new CmRejFlyweight().wrap(m.buffer(), 0);
        assertEquals(10, rej.reason());
        assertEquals(b.localCommId(), rej.localCommId());
        assertEquals(a.localCommId(), rej.remoteCommId());
        assertEquals(CmRejFlyweight.REJECTED_OTHER, rej.messageRejected());
        assertEquals(1, eventsB.connections.size());
        assertEquals(1L, count(devA, "cm_drop_unexpected"), "A's connection is in TimeWait: the REJ is not for it");
    }

    // Retries exhausted and destroyed IDs (cm_process_send_error, cm_destroy_id).

    @Test
    void aRepNeverAnsweredIsSent16TimesThenThePassiveSideIsUnreachableAndSendsNothing() {
        cmB.listen(SERVICE, eventsB);
        drop = m -> m.attribute() == MadHeaderFlyweight.ATTR_RTU;
        CmConnection a = connect()[0];
        CmConnection b = eventsB.connections.get(0);
        long start = sent(MadHeaderFlyweight.ATTR_REP).get(0).atNs();
        fabric.runFor(16 * 4096 * MS + 100 * MS);
        List<Mad> reps = sent(MadHeaderFlyweight.ATTR_REP);
        assertEquals(16, reps.size(), "the REP and the REQ's 15 max CM retries");
        for (int i = 1; i < reps.size(); i++) {
            // conv(the REQ's local CM response timeout 20), each from the tick that sent the last one
            assertWithinATick(4096 * MS, reps.get(i).atNs() - reps.get(i - 1).atNs(), "REP " + i);
            assertArrayEquals(reps.get(0).bytes(), reps.get(i).bytes());
        }
        // cm_process_send_error: REP_SENT -> IDLE and IB_CM_REP_ERROR, which the CMA reports as UNREACHABLE;
        // nothing goes on the wire (no REJ: cm_reset_to_idle sends none).
        assertEquals(2, eventsB.events.size(), eventsB.events.toString());
        assertTrue(eventsB.events.get(1).startsWith("UNREACHABLE@"));
        assertWithinATick(4096 * MS, Long.parseLong(eventsB.events.get(1).substring(12)) - reps.get(15).atNs(),
            "unreachable one interval after the last REP");
        assertTrue(reps.get(15).atNs() - start < 15 * 4097 * MS);
        assertEquals(CmState.IDLE, b.state());
        assertEquals(0, cmB.connections());
        assertEquals(List.of(), sent(MadHeaderFlyweight.ATTR_REJ));
        assertEquals(15L, count(devB, "cm_retransmits"));
        assertEquals(CmState.ESTABLISHED, a.state(), "A answered every REP with its RTU, all lost");
    }

    @Test
    void destroyingAConnectingIdWithdrawsTheReqWithRej4CarryingTheCaGuid() {
        eventsB.answerRequest = false;
        cmB.listen(SERVICE, eventsB);
        CmConnection a = connect()[0];
        CmConnection b = eventsB.connections.get(0);
        assertEquals(CmState.REQ_RCVD, b.state());
        fabric.execute(() -> cmA.destroy(a));
        fabric.runFor(10 * MS);
        Mad m = sent(MadHeaderFlyweight.ATTR_REJ).get(0);
        assertTrue(m.fromA());
        CmRejFlyweight rej = new CmRejFlyweight().wrap(m.buffer(), 0);
        // cm_destroy_id in REQ_SENT: cm_send_rej_locked(IB_CM_REJ_TIMEOUT, &node_guid) formats from REQ_SENT.
        assertEquals(CmRejFlyweight.REASON_TIMEOUT, rej.reason());
        assertEquals(CmRejFlyweight.REJECTED_OTHER, rej.messageRejected());
        assertEquals(a.localCommId(), rej.localCommId());
        assertEquals(0, rej.remoteCommId(), "the active side does not know B's ID yet");
        assertEquals(wire.get(0).tid(), m.tid());
        assertEquals(8, rej.rejectInfoLength());
        assertEquals(cmA.caGuid(), m.buffer().getLong(CmRejFlyweight.ADDITIONAL_REJECT_INFO_OFFSET,
            ByteOrder.BIG_ENDIAN), "the ARI is the CA GUID, by which B finds its connection");
        assertEquals(List.of("CONNECT_REQUEST", "REJECTED 4"), eventsB.events);
        assertEquals(CmState.IDLE, b.state());
        assertEquals(0, cmB.connections());
        assertEquals(0, cmA.connections());
        fabric.runFor(7000 * MS);
        assertEquals(1, sent(MadHeaderFlyweight.ATTR_REQ).size(), "the REQ's retransmission was cancelled");
        assertEquals(List.of(), eventsA.events, "a destroyed ID reports nothing");
    }

    @Test
    void destroyingAnEstablishedConnectionSendsADreq() {
        cmB.listen(SERVICE, eventsB);
        CmConnection a = connect()[0];
        fabric.execute(() -> cmA.destroy(a));
        fabric.runFor(2100 * MS);
        assertEquals(List.of(MadHeaderFlyweight.ATTR_REQ, MadHeaderFlyweight.ATTR_REP, MadHeaderFlyweight.ATTR_RTU,
            MadHeaderFlyweight.ATTR_DREQ, MadHeaderFlyweight.ATTR_DREP), wire.stream().map(Mad::attribute).toList());
        assertEquals(List.of("REPLY", "ESTABLISHED"), eventsA.events, "a destroyed ID reports nothing");
        assertEquals(List.of("CONNECT_REQUEST", "ESTABLISHED", "DISCONNECTED", "TIMEWAIT_EXIT"), eventsB.events);
        assertEquals(0, cmA.connections());
    }

    @Test
    void aRej4WithAnotherCaGuidIsDropped() {
        eventsB.answerRequest = false;
        cmB.listen(SERVICE, eventsB);
        CmConnection a = connect()[0];
        byte[] mad = new byte[256];
        UnsafeBuffer buf = new UnsafeBuffer(mad);
        new MadHeaderFlyweight().wrap(buf, 0).cmSend(MadHeaderFlyweight.ATTR_REJ, 1);
        new CmRejFlyweight().wrap(buf, 0).localCommId(a.localCommId()).messageRejected(CmRejFlyweight.REJECTED_OTHER)
            .reason(CmRejFlyweight.REASON_TIMEOUT).rejectInfoLength(8);
        buf.putLong(CmRejFlyweight.ADDITIONAL_REJECT_INFO_OFFSET, cmA.caGuid() + 2, ByteOrder.BIG_ENDIAN);
        fabric.execute(() -> devA.gsi().send(buf, 0, A, B, 4791));
        fabric.runFor(10 * MS);
        assertEquals(List.of("CONNECT_REQUEST"), eventsB.events);
        assertEquals(1L, count(devB, "cm_drop_unmatched"));
        assertEquals(CmState.REQ_RCVD, eventsB.connections.get(0).state());
    }

    // Stale connections (cm_match_req, cm_insert_remote_qpn).

    @Test
    void aNewReqFromTheQpOfAnEstablishedConnectionGetsRej10AndTheOldConnectionADreq() {
        cmB.listen(SERVICE, eventsB);
        CmConnection a = connect()[0];
        CmConnection b = eventsB.connections.get(0);
        CmConnection[] again = new CmConnection[1];
        fabric.execute(() -> again[0] = cmA.connect(params(), eventsA)); // the same QP, a new comm ID
        fabric.runFor(10 * MS);
        assertEquals(List.of(MadHeaderFlyweight.ATTR_REQ, MadHeaderFlyweight.ATTR_REJ, MadHeaderFlyweight.ATTR_DREQ,
            MadHeaderFlyweight.ATTR_DREP), wire.subList(3, wire.size()).stream().map(Mad::attribute).toList());
        Mad m = wire.get(4);
        CmRejFlyweight rej = new CmRejFlyweight().wrap(m.buffer(), 0);
        assertEquals(CmRejFlyweight.REASON_STALE_CONN, rej.reason());
        assertEquals(CmRejFlyweight.REJECTED_REQ, rej.messageRejected());
        assertEquals(0, rej.localCommId(), "cm_issue_rej: no connection of B sends it");
        assertEquals(again[0].localCommId(), rej.remoteCommId());
        assertEquals(wire.get(3).tid(), m.tid());
        CmDreqFlyweight dreq = new CmDreqFlyweight().wrap(wire.get(5).buffer(), 0);
        assertEquals(b.localCommId(), dreq.localCommId(), "ib_send_cm_dreq on the old connection");
        assertEquals(a.localCommId(), dreq.remoteCommId());
        assertEquals(QPN_A, dreq.remoteQpn());
        assertEquals(List.of("REPLY", "ESTABLISHED", "REJECTED 10", "DISCONNECTED"), eventsA.events);
        assertEquals(List.of("CONNECT_REQUEST", "ESTABLISHED", "DISCONNECTED"), eventsB.events);
        assertEquals(1, eventsB.connections.size(), "no new connection was reported");
        assertEquals(CmState.TIMEWAIT, again[0].state(), "cm_rej_handler: rejected as stale, through TimeWait");
        assertEquals(CmState.TIMEWAIT, b.state());
        assertEquals(1L, count(devB, "cm_stale_connections"));
        fabric.runFor(2100 * MS);
        assertEquals(0, cmA.connections());
        assertEquals(0, cmB.connections());
    }

    @Test
    void aNewReqFromAQpWhoseOldConnectionIsInTimeWaitIsNotStale() {
        cmB.listen(SERVICE, eventsB);
        CmConnection a = connect()[0];
        fabric.execute(() -> cmA.disconnect(a));
        fabric.runFor(10 * MS);
        assertEquals(CmState.TIMEWAIT, eventsB.connections.get(0).state());
        CmConnection[] again = new CmConnection[1];
        fabric.execute(() -> again[0] = cmA.connect(params(), eventsA));
        fabric.runFor(10 * MS);
        // cm_enter_timewait took the QP out of the stale-connection table.
        assertEquals(CmState.ESTABLISHED, again[0].state());
        assertEquals(2, eventsB.connections.size());
        assertEquals(0L, count(devB, "cm_stale_connections"));
    }

    // What cm_req_handler checks of the path.

    /** A REQ as A's manager sends it, captured from the wire with nothing delivered. */
    private byte[] reqTemplate() {
        drop = m -> true;
        CmConnection a = connect()[0];
        byte[] bytes = sent(MadHeaderFlyweight.ATTR_REQ).get(0).bytes().clone();
        fabric.execute(() -> cmA.destroy(a));
        fabric.runFor(MS);
        wire.clear();
        drop = m -> false;
        return bytes;
    }

    @Test
    void aReqWhosePathGidIsNotItsSenderGetsRej12WithTheGidItArrivedOn() {
        cmB.listen(SERVICE, eventsB);
        byte[] req = reqTemplate();
        UnsafeBuffer buf = new UnsafeBuffer(req);
        CmPathFlyweight path = new CmReqFlyweight().wrap(buf, 0).primaryPath(new CmPathFlyweight());
        path.localPortGid(Gid.parse("10.0.0.9").toBytes(), 0); // a host that did not send it
        fabric.execute(() -> devA.gsi().send(buf, 0, A, B, 4791));
        fabric.runFor(10 * MS);
        Mad m = sent(MadHeaderFlyweight.ATTR_REJ).get(0);
        CmRejFlyweight rej = new CmRejFlyweight().wrap(m.buffer(), 0);
        assertEquals(CmRejFlyweight.REASON_INVALID_GID, rej.reason());
        assertEquals(CmRejFlyweight.REJECTED_REQ, rej.messageRejected());
        assertEquals(0, rej.localCommId(), "sent from REQ_RCVD");
        assertEquals(new CmReqFlyweight().wrap(buf, 0).localCommId(), rej.remoteCommId());
        assertEquals(16, rej.rejectInfoLength());
        byte[] ari = new byte[16];
        m.buffer().getBytes(CmRejFlyweight.ADDITIONAL_REJECT_INFO_OFFSET, ari);
        assertArrayEquals(B, ari);
        assertEquals(List.of(), eventsB.events, "nothing reported");
        assertEquals(0, cmB.connections());
        assertEquals(1L, count(devB, "cm_rej_invalid_gid"));
    }

    // Both sides disconnect at once.

    @Test
    void crossingDreqsEndWithOneDisconnectedAndOneTimeWaitExitOnEachSide() {
        cmB.listen(SERVICE, eventsB);
        CmConnection a = connect()[0];
        CmConnection b = eventsB.connections.get(0);
        fabric.execute(() -> {
            cmA.disconnect(a);
            cmB.disconnect(b);
        });
        fabric.runFor(10 * MS);
        assertEquals(List.of(MadHeaderFlyweight.ATTR_DREQ, MadHeaderFlyweight.ATTR_DREQ, MadHeaderFlyweight.ATTR_DREP,
            MadHeaderFlyweight.ATTR_DREP), wire.subList(3, wire.size()).stream().map(Mad::attribute).toList());
        for (Mad m : wire.subList(5, 7)) {
            CmDrepFlyweight drep = new CmDrepFlyweight().wrap(m.buffer(), 0);
            Mad itsDreq = wire.get(m.fromA() ? 4 : 3); // each DREP answers the other side's DREQ, with its TID
            assertEquals(itsDreq.tid(), m.tid());
            assertEquals(m.fromA() ? a.localCommId() : b.localCommId(), drep.localCommId());
        }
        assertEquals(CmState.TIMEWAIT, a.state());
        assertEquals(CmState.TIMEWAIT, b.state());
        fabric.runFor(2100 * MS);
        assertEquals(List.of("REPLY", "ESTABLISHED", "DISCONNECTED", "TIMEWAIT_EXIT"), eventsA.events);
        assertEquals(List.of("CONNECT_REQUEST", "ESTABLISHED", "DISCONNECTED", "TIMEWAIT_EXIT"), eventsB.events);
        assertEquals(0, cmA.connections());
        assertEquals(0, cmB.connections());
        assertEquals(7, wire.size(), "no DREQ retransmitted");
        assertEquals(1L, count(devA, "cm_drop_unexpected"), "the DREP that crossed ours came in TimeWait");
        assertEquals(1L, count(devB, "cm_drop_unexpected"));
    }

    @Test
    void aDrepToADreqThatCrossedOursIsTakenInDreqRcvd() {
        cmB.listen(SERVICE, eventsB);
        eventsB.disconnectOnDreq = false; // B answers later, as a kernel's consumer may
        CmConnection a = connect()[0];
        CmConnection b = eventsB.connections.get(0);
        fabric.execute(() -> cmA.disconnect(a));
        fabric.runFor(10 * MS);
        assertEquals(CmState.DREQ_RCVD, b.state());
        // A kernel peer in DREQ_RCVD (its DREQ crossed ours) takes our DREP and enters TimeWait (cm_drep_handler).
        byte[] mad = new byte[256];
        UnsafeBuffer buf = new UnsafeBuffer(mad);
        new MadHeaderFlyweight().wrap(buf, 0).cmSend(MadHeaderFlyweight.ATTR_DREP, 7);
        new CmDrepFlyweight().wrap(buf, 0).localCommId(a.localCommId()).remoteCommId(b.localCommId());
        fabric.execute(() -> devA.gsi().send(buf, 0, A, B, 4791));
        fabric.runFor(10 * MS);
        assertEquals(CmState.TIMEWAIT, b.state());
        assertEquals(List.of("CONNECT_REQUEST", "ESTABLISHED", "DISCONNECTED"), eventsB.events, "reported once");
    }

    @Test
    void twoHundredConnectionsOnOneListener() {
        cmB.listen(SERVICE, eventsB);
        List<CmConnection> actives = new ArrayList<>();
        fabric.execute(() -> {
            for (int i = 0; i < 200; i++) {
                actives.add(cmA.connect(params(QPN_A + i), eventsA));
            }
        });
        fabric.runFor(10 * MS);
        assertEquals(200, eventsB.connections.size());
        assertTrue(actives.stream().allMatch(c -> c.state() == CmState.ESTABLISHED));
        assertTrue(eventsB.connections.stream().allMatch(c -> c.state() == CmState.ESTABLISHED));
        assertEquals(200, actives.stream().map(CmConnection::localCommId).distinct().count());
        for (CmConnection a : actives) {
            assertTrue(eventsB.connections.stream().anyMatch(b -> b.localCommId() == a.remoteCommId()
                && b.remoteCommId() == a.localCommId()));
        }
        assertEquals(600, wire.size());
        fabric.execute(() -> actives.forEach(cmA::disconnect));
        fabric.runFor(2100 * MS);
        assertEquals(0, cmA.connections());
        assertEquals(0, cmB.connections());
    }

    @Test
    void malformedAndUnmatchedMadsAreCountedAndDropped() {
        cmB.listen(SERVICE, eventsB);
        byte[] mad = new byte[256];
        UnsafeBuffer buf = new UnsafeBuffer(mad);
        new MadHeaderFlyweight().wrap(buf, 0).cmSend(0x0030, 1);
        fabric.execute(() -> devA.gsi().send(buf, 0, A, B, 4791)); // an unknown attribute
        fabric.runFor(MS);
        new MadHeaderFlyweight().wrap(buf, 0).cmSend(MadHeaderFlyweight.ATTR_REQ, 1).classVersion(1);
        fabric.execute(() -> devA.gsi().send(buf, 0, A, B, 4791)); // another class version
        fabric.runFor(MS);
        new MadHeaderFlyweight().wrap(buf, 0).cmSend(MadHeaderFlyweight.ATTR_RTU, 1);
        fabric.execute(() -> devA.gsi().send(buf, 0, A, B, 4791)); // an RTU for nothing
        fabric.runFor(MS);
        assertEquals(2L, count(devB, "cm_drop_bad_mad"));
        assertEquals(1L, count(devB, "cm_drop_unmatched"));
        assertEquals(3L, count(devB, "rcvd_mads"));
        assertEquals(0, cmB.connections());
        assertFalse(wire.stream().anyMatch(m -> !m.fromA()), "nothing answered");
    }
}
