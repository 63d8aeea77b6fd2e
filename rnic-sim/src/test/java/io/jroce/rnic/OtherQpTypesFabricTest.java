package io.jroce.rnic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.stack.wire.Opcode;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.RemoteQp;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.AddressHandle;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.AsyncEvent;
import io.jroce.verbs.AsyncEventType;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.SharedReceiveQueue;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/** UD and UC queue pairs and shared receive queues, between two RNICs on the simulated fabric. */
class OtherQpTypesFabricTest {
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;
    private static final int QKEY = 0x11111111;
    private final SimulatedFabric fabric = new SimulatedFabric();
    private final List<AutoCloseable> resources = new ArrayList<>();
    private final RdmaDevice devA = SoftRnic.builder().name("a").address("10.0.0.1").activeMtu(Mtu.MTU_1024).openOn(fabric);
    private final RdmaDevice devB = SoftRnic.builder().name("b").address("10.0.0.2").activeMtu(Mtu.MTU_1024).openOn(fabric);
    private final ProtectionDomain pdA = devA.allocPd();
    private final ProtectionDomain pdB = devB.allocPd();
    private final CompletionQueue cqA = devA.createCq(512);
    private final CompletionQueue cqB = devB.createCq(512);
    private final MemoryRegion mrA = pdA.allocateMemory(1 << 16, ACCESS);
    private final MemoryRegion mrB = pdB.allocateMemory(1 << 16, ACCESS);

    @AfterEach
    void close() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
        for (AutoCloseable c : new AutoCloseable[] {mrA, mrB, cqA, cqB, pdA, pdB, devA, devB}) {
            c.close();
        }
    }

    private <T extends AutoCloseable> T keep(T resource) {
        resources.add(resource);
        return resource;
    }

    private List<WorkCompletion> await(CompletionQueue cq, int n) {
        return FabricCompletions.await(fabric, cq, n, 10_000_000_000L, () -> "");
    }

    private QueuePair udQp(ProtectionDomain pd, CompletionQueue cq) {
        QueuePair qp = keep(pd.createQp(new QpInitAttributes().type(QpType.UD).cq(cq).maxSendWr(64).maxRecvWr(64)));
        QpConnector.ud(QKEY).activate(qp, 0x42);
        return qp;
    }

    @Test
    void udSendsCarryADethAndLandAfterTheGrhArea() {
        QueuePair a = udQp(pdA, cqA);
        QueuePair b = udQp(pdB, cqB);
        AddressHandle ah = keep(pdA.createAddressHandle(new AddressVector().destGid(devB.gids().get(0))));
        byte[] data = new byte[1000];
        new Random(5).nextBytes(data);
        mrA.buffer().put(0, data);
        b.postRecv(new ReceiveWorkRequest().wrId(1).sgList(ScatterGatherEntry.of(mrB, 0, 1040)));
        b.postRecv(new ReceiveWorkRequest().wrId(2).sgList(ScatterGatherEntry.of(mrB, 2000, 100)));
        a.postSend(new SendWorkRequest().wrId(7).opcode(WrOpcode.SEND_WITH_IMM).immData(99).sendFlags(SendFlags.SIGNALED)
            .ud(ah, b.qpNum(), QKEY).sgList(ScatterGatherEntry.of(mrA, 0, 1000)));
        WorkCompletion sent = await(cqA, 1).get(0);
        assertEquals(WcStatus.SUCCESS, sent.status());
        WorkCompletion wc = await(cqB, 1).get(0);
        assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
        assertEquals(WcOpcode.RECV, wc.opcode());
        assertEquals(1040, wc.byteLen(), "the GRH area counts");
        assertEquals(a.qpNum(), wc.srcQp());
        assertEquals(99, wc.immData());
        byte[] got = new byte[1000];
        mrB.buffer().get(40, got);
        assertArrayEquals(data, got);
        ByteBuffer grh = mrB.buffer().order(ByteOrder.BIG_ENDIAN);
        assertEquals(0x45, grh.get(20) & 0xff, "IPv4 header in the last 20 bytes of the GRH area");
        assertEquals(17, grh.get(29), "protocol UDP");
        assertEquals(0x0a000001, grh.getInt(32), "source address");
        assertEquals(0x0a000002, grh.getInt(36), "destination address");
        // A message larger than the second buffer completes it with a length error.
        a.postSend(new SendWorkRequest().wrId(8).opcode(WrOpcode.SEND).ud(ah, b.qpNum(), QKEY)
            .sgList(ScatterGatherEntry.of(mrA, 0, 100)));
        assertEquals(WcStatus.LOC_LEN_ERR, await(cqB, 1).get(0).status());
    }

    @Test
    void udDropsAWrongQkeyAndUsesTheQpsOwnForAHighBitQkey() {
        QueuePair a = udQp(pdA, cqA);
        QueuePair b = udQp(pdB, cqB);
        AddressHandle ah = keep(pdA.createAddressHandle(new AddressVector().destGid(devB.gids().get(0))));
        b.postRecv(new ReceiveWorkRequest().wrId(1).sgList(ScatterGatherEntry.of(mrB, 0, 200)));
        a.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).ud(ah, b.qpNum(), 0x1234)
            .sgList(ScatterGatherEntry.of(mrA, 0, 10)));
        fabric.runFor(1_000_000);
        assertEquals(1L, devB.counters().get("drop_bad_qkey"));
        WorkCompletion none = new WorkCompletion();
        assertEquals(false, cqB.poll(none));
        // 0x80000000: the sending QP's own Q_Key (the same here) goes on the wire (IBTA 10.2.4).
        a.postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.SEND).ud(ah, b.qpNum(), 0x80000000)
            .sgList(ScatterGatherEntry.of(mrA, 0, 10)));
        assertEquals(WcStatus.SUCCESS, await(cqB, 1).get(0).status());
    }

    @Test
    void udRefusesMessagesLargerThanTheMtuAndOtherOpcodes() {
        QueuePair a = udQp(pdA, cqA);
        AddressHandle ah = keep(pdA.createAddressHandle(new AddressVector().destGid(devB.gids().get(0))));
        assertThrows(InvalidAttributeException.class, () -> a.postSend(new SendWorkRequest().opcode(WrOpcode.SEND)
            .ud(ah, 0x11, QKEY).sgList(ScatterGatherEntry.of(mrA, 0, 1025))));
        assertThrows(InvalidAttributeException.class, () -> a.postSend(new SendWorkRequest().opcode(WrOpcode.RDMA_WRITE)
            .ud(ah, 0x11, QKEY).sgList(ScatterGatherEntry.of(mrA, 0, 8))));
        assertThrows(InvalidAttributeException.class, () -> a.postSend(new SendWorkRequest().opcode(WrOpcode.SEND)
            .sgList(ScatterGatherEntry.of(mrA, 0, 8))), "a UD send needs an address handle");
    }

    private QueuePair[] ucPair() {
        QueuePair a = keep(pdA.createQp(new QpInitAttributes().type(QpType.UC).cq(cqA)));
        QueuePair b = keep(pdB.createQp(new QpInitAttributes().type(QpType.UC).cq(cqB)));
        QpConnector uc = QpConnector.uc().accessFlags(AccessFlags.REMOTE_WRITE);
        uc.connect(a, 0x10, RemoteQp.of(b, 0x10, devB.gids().get(0)));
        uc.connect(b, 0x10, RemoteQp.of(a, 0x10, devA.gids().get(0)));
        return new QueuePair[] {a, b};
    }

    @Test
    void ucSendAndWriteWithoutAcknowledgements() {
        QueuePair[] qp = ucPair();
        byte[] data = new byte[3000];
        new Random(9).nextBytes(data);
        mrA.buffer().put(0, data);
        qp[1].postRecv(new ReceiveWorkRequest().wrId(1).sgList(ScatterGatherEntry.of(mrB, 0, 4096)));
        qp[0].postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(mrA, 0, 3000)));
        qp[0].postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.RDMA_WRITE_WITH_IMM).immData(5)
            .sendFlags(SendFlags.SIGNALED).remoteAddress(mrB.address() + 8192).rkey(mrB.rkey())
            .sgList(ScatterGatherEntry.of(mrA, 0, 3000)));
        qp[1].postRecv(new ReceiveWorkRequest().wrId(2));
        List<WorkCompletion> sent = await(cqA, 2);
        assertEquals(WcStatus.SUCCESS, sent.get(0).status());
        List<WorkCompletion> recv = await(cqB, 2);
        assertEquals(3000, recv.get(0).byteLen());
        assertEquals(WcOpcode.RECV_RDMA_WITH_IMM, recv.get(1).opcode());
        byte[] got = new byte[3000];
        mrB.buffer().get(0, got);
        assertArrayEquals(data, got);
        mrB.buffer().get(8192, got);
        assertArrayEquals(data, got);
        assertEquals(0L, devB.counters().get("sent_pkts"), "UC acknowledges nothing");
        assertThrows(InvalidAttributeException.class, () -> qp[0].postSend(new SendWorkRequest().opcode(WrOpcode.RDMA_READ)
            .remoteAddress(mrB.address()).rkey(mrB.rkey()).sgList(ScatterGatherEntry.of(mrA, 0, 8))));
    }

    @Test
    void ucDropsTheRestOfAMessageAfterALostPacketAndReusesTheReceive() {
        QueuePair[] qp = ucPair();
        int[] seen = {0};
        fabric.fault(d -> !(d.opcode() == Opcode.UC_SEND_MIDDLE && seen[0]++ == 0)); // lose the first MIDDLE
        qp[1].postRecv(new ReceiveWorkRequest().wrId(1).sgList(ScatterGatherEntry.of(mrB, 0, 4096)));
        qp[0].postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).sgList(ScatterGatherEntry.of(mrA, 0, 3000)));
        mrA.buffer().put(8000, (byte) 0x77);
        qp[0].postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.SEND).sgList(ScatterGatherEntry.of(mrA, 8000, 10)));
        WorkCompletion wc = await(cqB, 1).get(0);
        assertEquals(WcStatus.SUCCESS, wc.status());
        assertEquals(1, wc.wrId(), "the receive WQE of the broken message served the next one");
        assertEquals(10, wc.byteLen());
        assertEquals(0x77, mrB.buffer().get(0));
        assertTrue(devB.counters().get("drop_uc_message") >= 1);
    }

    @Test
    void manyQpsDrawFromOneSharedReceiveQueueAndItsLimitRaisesAnEvent() {
        List<AsyncEvent> events = new ArrayList<>();
        devB.asyncEventListener(events::add);
        SharedReceiveQueue srq = keep(pdB.createSrq(16, 1));
        QueuePair a1 = keep(pdA.createQp(new QpInitAttributes().cq(cqA)));
        QueuePair a2 = keep(pdA.createQp(new QpInitAttributes().cq(cqA)));
        QueuePair b1 = keep(pdB.createQp(new QpInitAttributes().cq(cqB).srq(srq).maxRecvWr(0).maxRecvSge(0))); // ignored with an SRQ
        QueuePair b2 = keep(pdB.createQp(new QpInitAttributes().cq(cqB).srq(srq)));
        connectRc(a1, devA, b1, devB);
        connectRc(a2, devA, b2, devB);
        assertThrows(InvalidStateException.class, () -> b1.postRecv(new ReceiveWorkRequest()));
        for (int i = 0; i < 4; i++) {
            srq.postRecv(new ReceiveWorkRequest().wrId(100 + i).sgList(ScatterGatherEntry.of(mrB, 64L * i, 64)));
        }
        srq.armLimit(3);
        a1.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).sgList(ScatterGatherEntry.of(mrA, 0, 8)));
        a2.postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.SEND).sgList(ScatterGatherEntry.of(mrA, 0, 8)));
        List<WorkCompletion> wcs = await(cqB, 2);
        assertEquals(100, wcs.get(0).wrId());
        assertEquals(101, wcs.get(1).wrId());
        assertEquals(b1.qpNum(), wcs.get(0).qpNum());
        assertEquals(b2.qpNum(), wcs.get(1).qpNum());
        assertEquals(2, srq.available());
        assertEquals(1, events.stream().filter(e -> e.type() == AsyncEventType.SRQ_LIMIT_REACHED).count());
        assertEquals(0, srq.limit(), "the limit disarms when it fires");
    }

    private static void connectRc(QueuePair self, RdmaDevice selfDev, QueuePair peer, RdmaDevice peerDev) {
        QpConnector rc = QpConnector.rc().accessFlags(0).rdAtomic(1).minRnrTimer(1);
        rc.connect(self, 0, RemoteQp.of(peer, 0, peerDev.gids().get(0)));
        rc.connect(peer, 0, RemoteQp.of(self, 0, selfDev.gids().get(0)));
    }

    @Test
    void anEmptySharedReceiveQueueIsReceiverNotReadyUntilARecvIsPosted() {
        SharedReceiveQueue srq = keep(pdB.createSrq(4, 1));
        QueuePair a = keep(pdA.createQp(new QpInitAttributes().cq(cqA)));
        QueuePair b = keep(pdB.createQp(new QpInitAttributes().cq(cqB).srq(srq)));
        connectRc(a, devA, b, devB);
        a.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(mrA, 0, 8)));
        fabric.runFor(2_000_000); // min_rnr_timer 1 = 0.01 ms: several RNR NAKs
        assertTrue(devB.counters().get("send_rnr_err") >= 2, "RNR NAKs while the SRQ is empty (IBTA 9.7.5.2.8)");
        srq.postRecv(new ReceiveWorkRequest().wrId(9).sgList(ScatterGatherEntry.of(mrB, 0, 64)));
        assertEquals(WcStatus.SUCCESS, await(cqA, 1).get(0).status());
        WorkCompletion recv = await(cqB, 1).get(0);
        assertEquals(9, recv.wrId());
        assertEquals(b.qpNum(), recv.qpNum());
    }
}
