package io.jroce.rnic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.AddressHandle;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.RemoteQp;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/**
 * The public RESET-to-RTS helper: each type reaches RTS with exactly the attributes it documents
 * (read back with query), a message then moves, and every misuse is a typed exception that says
 * what was wrong.
 */
class QpConnectorTest {
    private final SimulatedFabric fabric = new SimulatedFabric();
    private final RdmaDevice a = SoftRnic.builder().name("conn-a").address("10.0.0.1").jmx(false).openOn(fabric);
    private final RdmaDevice b = SoftRnic.builder().name("conn-b").address("10.0.0.2").jmx(false).openOn(fabric);
    private final ProtectionDomain pdA = a.allocPd();
    private final ProtectionDomain pdB = b.allocPd();
    private final CompletionQueue cqA = a.createCq(8);
    private final CompletionQueue cqB = b.createCq(8);
    private final MemoryRegion mrA = pdA.allocateMemory(4096, AccessFlags.LOCAL_WRITE);
    private final MemoryRegion mrB = pdB.allocateMemory(4096, AccessFlags.LOCAL_WRITE);

    @AfterEach
    void close() {
        mrA.close();
        mrB.close();
        pdA.close(); // closes nothing it still holds: QPs are closed by each test
        pdB.close();
        cqA.close();
        cqB.close();
        a.close();
        b.close();
    }

    private QueuePair qp(ProtectionDomain pd, CompletionQueue cq, QpType type) {
        return pd.createQp(new QpInitAttributes().type(type).cq(cq).maxSendWr(4).maxRecvWr(4));
    }

    @Test
    void rcReachesRtsWithTheDocumentedDefaultsAndASendMoves() {
        QueuePair qa = qp(pdA, cqA, QpType.RC);
        QueuePair qb = qp(pdB, cqB, QpType.RC);
        try {
            QpConnector.rc().connect(qa, 0x100, RemoteQp.of(qb, 0x200, b.gids().get(0)));
            QpConnector.rc().timeout(18).pathMtu(Mtu.MTU_4096).connect(qb, 0x200, RemoteQp.of(qa, 0x100, a.gids().get(0)));
            QpAttributes q = qa.query();
            assertEquals(QpState.RTS, q.state());
            assertEquals(AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC, q.accessFlags());
            assertEquals(Mtu.MTU_1024, q.pathMtu());
            assertEquals(qb.qpNum(), q.destQpNum());
            assertEquals(0x200, q.rqPsn());
            assertEquals(0x100, q.sqPsn());
            assertEquals(14, q.timeout());
            assertEquals(7, q.retryCount());
            assertEquals(7, q.rnrRetry());
            assertEquals(12, q.minRnrTimer());
            assertEquals(16, q.maxRdAtomic());
            assertEquals(16, q.maxDestRdAtomic());
            assertEquals(b.gids().get(0), q.addressVector().destGid());
            assertEquals(AddressVector.ROCE_V2_PORT, q.addressVector().udpPort());
            assertEquals(18, qb.query().timeout(), "a set option wins");
            assertEquals(Mtu.MTU_4096, qb.query().pathMtu());
            sendAndReceive(qa, qb, null);
        } finally {
            qa.close();
            qb.close();
        }
    }

    @Test
    void ucAndUdReachRtsAndMoveAMessage() {
        QueuePair ua = qp(pdA, cqA, QpType.UC);
        QueuePair ub = qp(pdB, cqB, QpType.UC);
        try {
            QpConnector.uc().connect(ua, 1, RemoteQp.of(ub, 2, b.gids().get(0)));
            QpConnector.uc().connect(ub, 2, RemoteQp.of(ua, 1, a.gids().get(0)));
            assertEquals(QpState.RTS, ua.state());
            sendAndReceive(ua, ub, null);
        } finally {
            ua.close();
            ub.close();
        }
        QueuePair da = qp(pdA, cqA, QpType.UD);
        QueuePair db = qp(pdB, cqB, QpType.UD);
        try (AddressHandle ah = pdA.createAddressHandle(new AddressVector().destGid(b.gids().get(0)))) {
            QpConnector.ud(0x11111111).activate(da, 5);
            QpConnector.ud(0x11111111).activate(db, 6);
            assertEquals(0x11111111, db.query().qkey());
            assertEquals(QpState.RTS, db.state());
            sendAndReceive(da, db, ah);
        } finally {
            da.close();
            db.close();
        }
    }

    private void sendAndReceive(QueuePair from, QueuePair to, AddressHandle ah) {
        int grh = ah == null ? 0 : 40;
        to.postRecv(new ReceiveWorkRequest().wrId(2).sgList(ScatterGatherEntry.of(mrB, 0, 256)));
        mrA.buffer().put(0, new byte[] {7, 8, 9});
        SendWorkRequest wr = new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(mrA, 0, 3));
        if (ah != null) {
            wr.ud(ah, to.qpNum(), 0x11111111);
        }
        from.postSend(wr);
        List<WorkCompletion> got = FabricCompletions.await(fabric, cqB, 1, ChannelFabricPair.MAX_RUN_NS, () -> "");
        assertEquals(WcStatus.SUCCESS, got.get(0).status());
        assertEquals(3 + grh, got.get(0).byteLen());
        assertEquals(9, mrB.buffer().get(grh + 2));
        FabricCompletions.await(fabric, cqA, 1, ChannelFabricPair.MAX_RUN_NS, () -> "");
    }

    @Test
    void misuseSaysWhatWasWrong() {
        QueuePair rc = qp(pdA, cqA, QpType.RC);
        QueuePair ud = qp(pdA, cqA, QpType.UD);
        RemoteQp peer = new RemoteQp(0x12, 0, b.gids().get(0));
        try {
            assertEquals("queue pair is null",
                assertThrows(InvalidAttributeException.class, () -> QpConnector.rc().connect(null, 0, peer)).getMessage());
            assertEquals("peer is null",
                assertThrows(InvalidAttributeException.class, () -> QpConnector.rc().connect(rc, 0, null)).getMessage());
            assertEquals("a UC connector cannot bring a RC QP up",
                assertThrows(InvalidAttributeException.class, () -> QpConnector.uc().connect(rc, 0, peer)).getMessage());
            assertEquals("a UD QP has no peer to connect to: use activate",
                assertThrows(InvalidAttributeException.class, () -> QpConnector.ud(1).connect(ud, 0, peer)).getMessage());
            assertEquals("an RC QP connects to a peer: use connect",
                assertThrows(InvalidAttributeException.class, () -> QpConnector.rc().activate(rc, 0)).getMessage());
            assertEquals(QpState.RESET, rc.state(), "nothing was modified");
            QpConnector.rc().connect(rc, 0, peer);
            assertThrows(InvalidStateException.class, () -> QpConnector.rc().connect(rc, 0, peer),
                "a QP that is not in RESET cannot take RESET -> INIT's attributes");
        } finally {
            rc.close();
            ud.close();
        }
        Gid gid = b.gids().get(0);
        assertEquals("peer QPN 0x1000000 is not a 24-bit QP number",
            assertThrows(InvalidAttributeException.class, () -> new RemoteQp(1 << 24, 0, gid)).getMessage());
        assertEquals("peer PSN 0xffffffff is not a 24-bit PSN",
            assertThrows(InvalidAttributeException.class, () -> new RemoteQp(1, -1, gid)).getMessage());
        assertEquals("peer GID is null",
            assertThrows(InvalidAttributeException.class, () -> new RemoteQp(1, 0, null)).getMessage());
        assertEquals("peer UDP port 0 is not in 1..65535",
            assertThrows(InvalidAttributeException.class, () -> new RemoteQp(1, 0, gid, 0)).getMessage());
        assertEquals("peer QP is null",
            assertThrows(InvalidAttributeException.class, () -> RemoteQp.of(null, 0, gid)).getMessage());
    }
}
