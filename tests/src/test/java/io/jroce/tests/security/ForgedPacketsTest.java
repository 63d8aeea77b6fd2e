package io.jroce.tests.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.Arrays;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.jroce.stack.wire.AethKind;
import io.jroce.stack.wire.AethSyndrome;
import io.jroce.stack.wire.NakCode;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.Psn;
import io.jroce.stack.wire.RocePacket;
import io.jroce.tests.support.Completions;
import io.jroce.tests.support.Node;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.SharedReceiveQueue;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/**
 * Issue 11: crafted datagrams with valid ICRCs from a QP's peer address, sent to a running device
 * over UDP. Every wait is for a packet or completion the device must produce after the effect the
 * attack must not have, so a correct device passes without waiting on time.
 */
class ForgedPacketsTest {
    private static final int PEER_QPN = 0x4242;
    private static final int MTU = ForgedPeer.MTU.bytes();

    private Node victim;
    private ForgedPeer peer;

    @BeforeEach
    void open() throws Exception {
        victim = Node.open("jrocesec", ForgedPeer.ADDRESS, ForgedPeer.MTU);
        peer = new ForgedPeer(victim);
    }

    @AfterEach
    void close() {
        peer.close();
        victim.close();
    }

    private QueuePair createQp(CompletionQueue sendCq, CompletionQueue recvCq, SharedReceiveQueue srq) {
        return victim.own(victim.pd().createQp(new QpInitAttributes().type(QpType.RC).sendCq(sendCq).recvCq(recvCq)
            .maxSendWr(16).maxRecvWr(16).maxSendSge(1).maxRecvSge(1).srq(srq)));
    }

    private static byte[] filled(int length, int value) {
        byte[] b = new byte[length];
        Arrays.fill(b, (byte) value);
        return b;
    }

    private static byte[] read(MemoryRegion mr, int offset, int length) {
        byte[] b = new byte[length];
        mr.buffer().duplicate().position(offset).get(b);
        return b;
    }

    /** Defect 2: a multi-packet SEND owns its SRQ WQE from its first packet; another QP's SEND takes the next. */
    @Test
    void srqWqeOfAMessageInProgressIsNotTakenByAnotherQp() throws Exception {
        CompletionQueue sendCq = victim.createCq(16);
        CompletionQueue recvCqA = victim.createCq(16);
        CompletionQueue recvCqB = victim.createCq(16);
        SharedReceiveQueue srq = victim.own(victim.pd().createSrq(8, 1));
        QueuePair a = createQp(sendCq, recvCqA, srq);
        QueuePair b = createQp(sendCq, recvCqB, srq);
        int psnA = 0x100;
        int psnB = 0x900;
        peer.connect(a, PEER_QPN, psnA, 0, 7);
        peer.connect(b, PEER_QPN + 1, psnB, 0, 7);
        MemoryRegion buf1 = victim.allocateMemory(4096, AccessFlags.LOCAL_WRITE);
        MemoryRegion buf2 = victim.allocateMemory(4096, AccessFlags.LOCAL_WRITE);
        srq.postRecv(new ReceiveWorkRequest().wrId(1).sgList(new ScatterGatherEntry(buf1.address(), 4096, buf1.lkey())));
        srq.postRecv(new ReceiveWorkRequest().wrId(2).sgList(new ScatterGatherEntry(buf2.address(), 4096, buf2.lkey())));

        peer.send(Opcode.RC_SEND_FIRST, a.qpNum(), psnA, filled(MTU, 'a'), p -> { });
        peer.send(Opcode.RC_SEND_ONLY, b.qpNum(), psnB, filled(10, 'b'), p -> p.bth().ackRequest(true));
        assertEquals("RC_ACKNOWLEDGE " + psnB, peer.receiveName());
        peer.send(Opcode.RC_SEND_LAST, a.qpNum(), psnA + 1, filled(100, 'c'), p -> p.bth().ackRequest(true));
        assertEquals("RC_ACKNOWLEDGE " + (psnA + 1), peer.receiveName());

        WorkCompletion wcB = Completions.await(recvCqB, "B's SEND", victim::describeCounters);
        assertEquals(2, wcB.wrId(), "B's SEND ONLY takes the WQE after the one A's message holds");
        assertEquals(WcStatus.SUCCESS, wcB.status());
        assertEquals(10, wcB.byteLen());
        assertArrayEquals(filled(10, 'b'), read(buf2, 0, 10));
        WorkCompletion wcA = Completions.await(recvCqA, "A's SEND", victim::describeCounters);
        assertEquals(1, wcA.wrId());
        assertEquals(WcStatus.SUCCESS, wcA.status());
        assertEquals(WcOpcode.RECV, wcA.opcode());
        assertEquals(MTU + 100, wcA.byteLen());
        assertArrayEquals(filled(MTU, 'a'), read(buf1, 0, MTU));
        assertArrayEquals(filled(100, 'c'), read(buf1, MTU, 100));

        // One WQE left for two messages: A's takes it at its FIRST, B's SEND waits with an RNR NAK.
        srq.postRecv(new ReceiveWorkRequest().wrId(3).sgList(new ScatterGatherEntry(buf1.address(), 4096, buf1.lkey())));
        peer.send(Opcode.RC_SEND_FIRST, a.qpNum(), psnA + 2, filled(MTU, 'd'), p -> { });
        peer.send(Opcode.RC_SEND_ONLY, b.qpNum(), psnB + 1, filled(10, 'e'), p -> p.bth().ackRequest(true));
        RocePacket rnr = peer.receive();
        assertEquals(Opcode.RC_ACKNOWLEDGE, rnr.bth().opcode());
        assertEquals(AethKind.RNR_NAK, rnr.aeth().kind());
        assertEquals(psnB + 1, rnr.bth().psn());
        peer.send(Opcode.RC_SEND_LAST, a.qpNum(), psnA + 3, filled(1, 'f'), p -> p.bth().ackRequest(true));
        assertEquals("RC_ACKNOWLEDGE " + (psnA + 3), peer.receiveName());
        WorkCompletion wc3 = Completions.await(recvCqA, "A's second SEND", victim::describeCounters);
        assertEquals(3, wc3.wrId());
        assertEquals(WcStatus.SUCCESS, wc3.status());
        assertEquals(MTU + 1, wc3.byteLen());
        Completions.assertNone(recvCqB, "B's receive CQ");
        assertEquals(0, victim.counter("drop_internal_error"));
        assertEquals(QpState.RTS, a.state());
        assertEquals(QpState.RTS, b.state());
    }

    /** Defect 3: NAKs and RNR NAKs for PSNs never sent are dropped and counted, and the WRITE still completes. */
    @Test
    void forgedNaksWithPsnsNeverSentDoNotFailAnOutstandingWrite() throws Exception {
        CompletionQueue sendCq = victim.createCq(16);
        CompletionQueue recvCq = victim.createCq(16);
        QueuePair qp = createQp(sendCq, recvCq, null);
        int sqPsn = 0x2000;
        peer.connect(qp, PEER_QPN, 0, sqPsn, 0); // rnr_retry 0: one RNR NAK taken would fail the WRITE
        MemoryRegion src = victim.allocateMemory(64, AccessFlags.LOCAL_WRITE);
        qp.postSend(new SendWorkRequest().wrId(9).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
            .sgList(new ScatterGatherEntry(src.address(), 64, src.lkey())).remoteAddress(0x10000).rkey(0x1234));
        assertEquals("RC_RDMA_WRITE_ONLY " + sqPsn, peer.receiveName());
        long before = victim.counter("drop_unexpected_response");

        int[] neverSent = {Psn.add(sqPsn, 0x7FFFF0), Psn.add(sqPsn, 0x3FFFFF), sqPsn + 77, sqPsn + 1};
        NakCode[] codes = {NakCode.INVALID_REQUEST, NakCode.REMOTE_ACCESS_ERROR, NakCode.REMOTE_OPERATIONAL_ERROR};
        for (int psn : neverSent) {
            for (NakCode code : codes) {
                peer.send(Opcode.RC_ACKNOWLEDGE, qp.qpNum(), psn, new byte[0], p -> p.aeth().nak(0, code));
            }
            peer.send(Opcode.RC_ACKNOWLEDGE, qp.qpNum(), psn, new byte[0], p -> p.aeth().rnrNak(0, 31));
        }
        peer.send(Opcode.RC_ACKNOWLEDGE, qp.qpNum(), sqPsn, new byte[0],
            p -> p.aeth().syndrome(AethSyndrome.ack(AethSyndrome.NO_CREDIT_COUNT)).msn(1));

        WorkCompletion wc = Completions.await(sendCq, "the WRITE", victim::describeCounters);
        assertEquals(9, wc.wrId());
        assertEquals(WcStatus.SUCCESS, wc.status(), victim.describeCounters());
        assertEquals(QpState.RTS, qp.state());
        assertEquals(4L * neverSent.length, victim.counter("drop_unexpected_response") - before);
        assertEquals(0, victim.counter("rcvd_rnr_err"));
    }

    /** Defect 4: a READ with a past PSN is executed again only if it repeats a READ the responder executed. */
    @Test
    void readWithAPastPsnNeverReceivedReadsNothing() throws Exception {
        CompletionQueue sendCq = victim.createCq(16);
        CompletionQueue recvCq = victim.createCq(16);
        QueuePair qp = createQp(sendCq, recvCq, null);
        int rqPsn = 0x5000;
        peer.connect(qp, PEER_QPN, rqPsn, 0, 7);
        MemoryRegion secret = victim.allocateMemory(4096, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ);
        secret.buffer().duplicate().put(filled(4096, 's'));
        long va = secret.address();
        int rkey = secret.rkey();

        int[] neverReceived = {rqPsn - 1, rqPsn - 100, Psn.add(rqPsn, -0x7FFFFF), Psn.add(rqPsn, -0x400000)};
        for (int psn : neverReceived) {
            peer.send(Opcode.RC_RDMA_READ_REQUEST, qp.qpNum(), psn, new byte[0],
                p -> p.reth().virtualAddress(va).rKey(rkey).dmaLength(64));
        }
        // The first answer is the one to the READ in sequence: none of the forged READs was answered.
        peer.send(Opcode.RC_RDMA_READ_REQUEST, qp.qpNum(), rqPsn, new byte[0],
            p -> p.reth().virtualAddress(va).rKey(rkey).dmaLength(64));
        RocePacket first = peer.receive();
        assertEquals("RC_RDMA_READ_RESPONSE_ONLY " + rqPsn, first.info().name() + " " + first.bth().psn());
        byte[] data = new byte[first.payloadLength()];
        first.buffer().getBytes(first.payloadOffset(), data);
        assertArrayEquals(filled(64, 's'), data);

        // A true duplicate (a lost response) is answered again; one reaching past the READ is not.
        peer.send(Opcode.RC_RDMA_READ_REQUEST, qp.qpNum(), rqPsn, new byte[0],
            p -> p.reth().virtualAddress(va).rKey(rkey).dmaLength(4096));
        peer.send(Opcode.RC_RDMA_READ_REQUEST, qp.qpNum(), rqPsn, new byte[0],
            p -> p.reth().virtualAddress(va).rKey(rkey).dmaLength(64));
        assertEquals("RC_RDMA_READ_RESPONSE_ONLY " + rqPsn, peer.receiveName());
        peer.send(Opcode.RC_RDMA_READ_REQUEST, qp.qpNum(), rqPsn + 1, new byte[0],
            p -> p.reth().virtualAddress(va).rKey(rkey).dmaLength(8));
        assertEquals("RC_RDMA_READ_RESPONSE_ONLY " + (rqPsn + 1), peer.receiveName());
        assertEquals(neverReceived.length + 1, victim.counter("drop_unmatched_read"));
        assertEquals(QpState.RTS, qp.state());
    }
}
