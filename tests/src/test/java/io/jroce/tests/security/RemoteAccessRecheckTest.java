package io.jroce.tests.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.Arrays;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.jroce.stack.wire.AethKind;
import io.jroce.stack.wire.NakCode;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.RocePacket;
import io.jroce.tests.support.Completions;
import io.jroce.tests.support.Node;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.MemoryWindow;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/**
 * Issue 11, defect 7: every packet of an RDMA WRITE checks its rkey and range again (as rxe's
 * responder looks the key up for each packet), so the MIDDLE and LAST packets of a WRITE begun
 * before the region was deregistered, or before the window was invalidated, write nothing and
 * are NAKed with a remote access error. The memory is a buffer the test keeps, so its bytes can
 * be read after the region is gone.
 */
class RemoteAccessRecheckTest {
    private static final int PEER_QPN = 0x4343;
    private static final int MTU = ForgedPeer.MTU.bytes();

    private Node victim;
    private ForgedPeer peer;

    @BeforeEach
    void open() throws Exception {
        victim = Node.open("jrocesec7", ForgedPeer.ADDRESS, ForgedPeer.MTU);
        peer = new ForgedPeer(victim);
    }

    @AfterEach
    void close() {
        peer.close();
        victim.close();
    }

    private QueuePair createQp(CompletionQueue cq) {
        return victim.own(victim.pd().createQp(new QpInitAttributes().type(QpType.RC).sendCq(cq).recvCq(cq)
            .maxSendWr(16).maxRecvWr(16).maxSendSge(1).maxRecvSge(1)));
    }

    private static byte[] filled(int length, int value) {
        byte[] b = new byte[length];
        Arrays.fill(b, (byte) value);
        return b;
    }

    private static byte[] bytes(ByteBuffer memory, int offset, int length) {
        byte[] b = new byte[length];
        memory.duplicate().position(offset).get(b);
        return b;
    }

    private void writeFirst(QueuePair qp, int psn, long va, int rkey, int dmaLength) throws Exception {
        peer.send(Opcode.RC_RDMA_WRITE_FIRST, qp.qpNum(), psn, filled(MTU, 'a'),
            p -> {
                p.bth().ackRequest(true);
                p.reth().virtualAddress(va).rKey(rkey).dmaLength(dmaLength);
            });
        assertEquals("RC_ACKNOWLEDGE " + psn, peer.receiveName(), "the WRITE FIRST is acknowledged");
    }

    private void assertRemoteAccessNak(int psn) throws Exception {
        RocePacket nak = peer.receive();
        assertEquals("RC_ACKNOWLEDGE " + psn, nak.info().name() + " " + nak.bth().psn());
        assertEquals(AethKind.NAK, nak.aeth().kind(), victim.describeCounters());
        assertEquals(NakCode.REMOTE_ACCESS_ERROR, nak.aeth().nakCode());
    }

    @Test
    void writeMiddleAndLastAfterTheRegionIsDeregisteredWriteNothing() throws Exception {
        CompletionQueue cq = victim.createCq(16);
        QueuePair a = createQp(cq);
        QueuePair b = createQp(cq);
        peer.connect(a, PEER_QPN, 0x100, 0, 7);
        peer.connect(b, PEER_QPN + 1, 0x200, 0, 7);
        ByteBuffer memory = ByteBuffer.allocateDirect(4 * MTU);
        MemoryRegion mr = victim.pd().registerMemory(memory, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
        long va = mr.address();
        int rkey = mr.rkey();

        writeFirst(a, 0x100, va, rkey, 3 * MTU);
        writeFirst(b, 0x200, va + MTU, rkey, 2 * MTU);
        mr.close();
        peer.send(Opcode.RC_RDMA_WRITE_MIDDLE, a.qpNum(), 0x101, filled(MTU, 'b'), p -> p.bth().ackRequest(true));
        assertRemoteAccessNak(0x101);
        peer.send(Opcode.RC_RDMA_WRITE_LAST, b.qpNum(), 0x201, filled(MTU, 'c'), p -> p.bth().ackRequest(true));
        assertRemoteAccessNak(0x201);

        assertArrayEquals(filled(MTU, 'a'), bytes(memory, 0, MTU));
        assertArrayEquals(filled(MTU, 'a'), bytes(memory, MTU, MTU), "B's FIRST, written before the close");
        assertArrayEquals(new byte[2 * MTU], bytes(memory, 2 * MTU, 2 * MTU), "nothing after the close");
    }

    @Test
    void writeMiddleAfterLocalInvalidateOfTheWindowWritesNothing() throws Exception {
        CompletionQueue cq = victim.createCq(16);
        QueuePair qp = createQp(cq);
        peer.connect(qp, PEER_QPN, 0x300, 0, 7);
        ByteBuffer memory = ByteBuffer.allocateDirect(4 * MTU);
        MemoryRegion mr = victim.own(victim.pd().registerMemory(memory, AccessFlags.LOCAL_WRITE | AccessFlags.MW_BIND));
        MemoryWindow mw = victim.own(victim.pd().allocMemoryWindow(2));
        int rkey = mw.nextRkey();
        qp.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.BIND_MW).sendFlags(SendFlags.SIGNALED)
            .bindMw(mw, rkey, mr, mr.address(), 4 * MTU, AccessFlags.REMOTE_WRITE));
        WorkCompletion bind = Completions.await(cq, "BIND_MW", victim::describeCounters);
        assertEquals(WcStatus.SUCCESS, bind.status(), bind.toString());

        writeFirst(qp, 0x300, mr.address(), rkey, 3 * MTU);
        qp.postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.LOCAL_INV).sendFlags(SendFlags.SIGNALED)
            .invalidateRkey(rkey));
        WorkCompletion inv = Completions.await(cq, "LOCAL_INV", victim::describeCounters);
        assertEquals(WcStatus.SUCCESS, inv.status(), inv.toString());
        peer.send(Opcode.RC_RDMA_WRITE_MIDDLE, qp.qpNum(), 0x301, filled(MTU, 'b'), p -> p.bth().ackRequest(true));
        assertRemoteAccessNak(0x301);

        assertArrayEquals(filled(MTU, 'a'), bytes(memory, 0, MTU));
        assertArrayEquals(new byte[3 * MTU], bytes(memory, MTU, 3 * MTU), "nothing after LOCAL_INV");
    }
}
