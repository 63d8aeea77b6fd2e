package io.jroce.rnic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.AddressHandle;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.DeviceAttributes;
import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ResourceClosedException;
import io.jroce.verbs.ResourceLimitException;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/**
 * Multicast as RoCE does it (ibv_attach_mcast, no MADs): UD sends to QPN 0xFFFFFF with a multicast
 * destination GID, delivered by the fabric to every device that joined the group and by each
 * device to every QP attached, each QP checking its own Q_Key.
 */
class MulticastFabricTest {
    private static final int QKEY = 0x01234567;
    private static final int MULTICAST_QPN = 0xFFFFFF;
    private static final Gid GROUP = Gid.parse("239.1.2.3");
    private final SimulatedFabric fabric = new SimulatedFabric();
    private final List<AutoCloseable> resources = new ArrayList<>();
    private final Side a = new Side("a", "10.0.0.1");
    private final Side b = new Side("b", "10.0.0.2");
    private final Side c = new Side("c", "10.0.0.3");

    /** One device with a PD, a CQ for all its QPs and a memory region. */
    private final class Side {
        final RdmaDevice device;
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final MemoryRegion mr;

        Side(String name, String address) {
            device = SoftRnic.builder().name(name).address(address).openOn(fabric);
            pd = device.allocPd();
            cq = device.createCq(512);
            mr = pd.allocateMemory(1 << 16, AccessFlags.LOCAL_WRITE);
        }

        QueuePair udQp(int qkey) {
            QueuePair qp = keep(pd.createQp(new QpInitAttributes().type(QpType.UD).cq(cq).maxSendWr(16).maxRecvWr(16)));
            QpConnector.ud(qkey).activate(qp, 0);
            return qp;
        }

        /** Posts a receive of 40 + 100 bytes at {@code 256 * slot}. */
        void postRecv(QueuePair qp, int slot) {
            qp.postRecv(new ReceiveWorkRequest().wrId(slot).sgList(ScatterGatherEntry.of(mr, 256 * slot, 140)));
        }

        long counter(String name) {
            return device.counters().get(name);
        }

        void close() {
            mr.close();
            cq.close();
            pd.close();
            device.close();
        }
    }

    @AfterEach
    void close() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
        for (Side s : new Side[] {a, b, c}) {
            s.close();
        }
    }

    private <T extends AutoCloseable> T keep(T resource) {
        resources.add(resource);
        return resource;
    }

    /** A sends {@code data} from its QP to the group, with {@code qkey}; returns its send completion. */
    private WorkCompletion sendToGroup(QueuePair sender, byte[] data, int qkey) {
        AddressHandle ah = keep(a.pd.createAddressHandle(new AddressVector().destGid(GROUP)));
        a.mr.buffer().put(0, data);
        sender.postSend(new SendWorkRequest().wrId(9).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .ud(ah, MULTICAST_QPN, qkey).sgList(ScatterGatherEntry.of(a.mr, 0, data.length)));
        WorkCompletion sent = FabricCompletions.await(fabric, a.cq, 1, 1_000_000_000L, () -> "").get(0);
        fabric.runFor(1_000_000);
        return sent;
    }

    /** Every completion on {@code cq} now. */
    private static List<WorkCompletion> drain(CompletionQueue cq) {
        List<WorkCompletion> all = new ArrayList<>();
        WorkCompletion wc = new WorkCompletion();
        while (cq.poll(wc)) {
            all.add(wc);
            wc = new WorkCompletion();
        }
        return all;
    }

    @Test
    void aSendToTheGroupReachesEveryAttachedQpOfEveryJoinedDevice() {
        QueuePair sender = a.udQp(QKEY);
        QueuePair b1 = b.udQp(QKEY);
        QueuePair b2 = b.udQp(QKEY);
        QueuePair b3 = b.udQp(QKEY);
        QueuePair c1 = c.udQp(QKEY);
        QueuePair c2 = c.udQp(0x1111);
        for (QueuePair qp : new QueuePair[] {b1, b2, b3, c1, c2}) {
            qp.attachMcast(GROUP, 0);
        }
        b3.detachMcast(GROUP, 0);
        b.postRecv(b1, 0);
        b.postRecv(b2, 1);
        b.postRecv(b3, 2);
        c.postRecv(c1, 0);
        c.postRecv(c2, 1);
        byte[] data = new byte[100];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 7);
        }

        assertEquals(WcStatus.SUCCESS, sendToGroup(sender, data, QKEY).status());

        List<WorkCompletion> atB = drain(b.cq);
        Set<Integer> qpsAtB = new TreeSet<>();
        for (WorkCompletion wc : atB) {
            assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
            assertEquals(WcOpcode.RECV, wc.opcode());
            assertEquals(sender.qpNum(), wc.srcQp());
            assertEquals(40 + 100, wc.byteLen());
            qpsAtB.add(wc.qpNum());
            byte[] got = new byte[100];
            b.mr.buffer().get(256 * (int) wc.wrId() + 40, got);
            assertArrayEquals(data, got);
            ByteBuffer grh = b.mr.buffer().order(ByteOrder.BIG_ENDIAN);
            assertEquals(0x0a000001, grh.getInt(256 * (int) wc.wrId() + 32), "source address");
            assertEquals(0xef010203, grh.getInt(256 * (int) wc.wrId() + 36), "destination: the group");
        }
        assertEquals(new TreeSet<>(List.of(b1.qpNum(), b2.qpNum())), qpsAtB, "b3 detached before the send");
        List<WorkCompletion> atC = drain(c.cq);
        assertEquals(1, atC.size(), "c2's Q_Key differs: its copy is dropped");
        assertEquals(c1.qpNum(), atC.get(0).qpNum());
        assertEquals(1L, c.counter("drop_bad_qkey"));
        assertEquals(0L, b.counter("drop_bad_qkey"));
        assertEquals(2L, b.counter("rdma_recvs"));
        assertEquals(1L, c.counter("rdma_recvs"));
        assertEquals(2L, b.counter("rcvd_pkts"), "one packet, a copy for each attached QP");
        assertEquals(0L, a.counter("rcvd_pkts"), "the sender joined nothing");
    }

    @Test
    void theDeviceLeavesTheGroupWithItsLastQpAndDestroyingAQpDetachesIt() {
        QueuePair sender = a.udQp(QKEY);
        QueuePair b1 = b.udQp(QKEY);
        QueuePair b2 = b.udQp(QKEY);
        b1.attachMcast(GROUP, 0);
        b2.attachMcast(GROUP, 0);
        b1.attachMcast(GROUP, 0); // twice is once
        b.postRecv(b1, 0);
        b.postRecv(b2, 1);
        b1.close();
        sendToGroup(sender, new byte[10], QKEY);
        List<WorkCompletion> got = drain(b.cq);
        assertEquals(1, got.size());
        assertEquals(b2.qpNum(), got.get(0).qpNum());

        b2.detachMcast(GROUP, 0);
        b.postRecv(b2, 2);
        sendToGroup(sender, new byte[10], QKEY);
        assertFalse(b.cq.poll(new WorkCompletion()));
        assertEquals(1L, b.counter("rcvd_pkts"), "the device left the group: the fabric no longer delivers to it");
        assertThrows(InvalidAttributeException.class, () -> b2.detachMcast(GROUP, 0));
    }

    @Test
    void qpn0xFfffffToAUnicastAddressHasNoQp() {
        QueuePair sender = a.udQp(QKEY);
        QueuePair b1 = b.udQp(QKEY);
        b1.attachMcast(GROUP, 0);
        b.postRecv(b1, 0);
        AddressHandle ah = keep(a.pd.createAddressHandle(new AddressVector().destGid(b.device.gids().get(0))));
        sender.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).ud(ah, MULTICAST_QPN, QKEY)
            .sgList(ScatterGatherEntry.of(a.mr, 0, 10)));
        fabric.runFor(1_000_000);
        assertEquals(1L, b.counter("drop_unknown_qpn"));
        assertFalse(b.cq.poll(new WorkCompletion()));
    }

    @Test
    void misuseIsRefusedWithTypedExceptions() {
        QueuePair ud = b.udQp(QKEY);
        QueuePair rc = keep(b.pd.createQp(new QpInitAttributes().type(QpType.RC).cq(b.cq)));
        assertThrows(InvalidAttributeException.class, () -> rc.attachMcast(GROUP, 0), "UD QPs only");
        assertThrows(InvalidAttributeException.class, () -> ud.attachMcast(Gid.parse("10.0.0.9"), 0), "unicast GID");
        assertThrows(InvalidAttributeException.class, () -> ud.attachMcast(GROUP, 0x10000), "16-bit MLID");
        assertThrows(InvalidAttributeException.class, () -> ud.detachMcast(GROUP, 0), "not attached");
        ud.attachMcast(Gid.parse("ff0e::1"), 0xC001); // an IPv6 group and any MLID do
        ud.detachMcast(Gid.parse("ff0e::1"), 0xC001);
        QueuePair gone = b.pd.createQp(new QpInitAttributes().type(QpType.UD).cq(b.cq));
        gone.close();
        assertThrows(ResourceClosedException.class, () -> gone.attachMcast(GROUP, 0));
    }

    @Test
    void aGroupTakesMaxMcastQpAttachQps() {
        DeviceAttributes attrs = b.device.queryDevice();
        assertEquals(8192, attrs.maxMcastGrp());
        assertEquals(56, attrs.maxMcastQpAttach());
        assertEquals(0x70000, attrs.maxTotalMcastQpAttach());
        for (int i = 0; i < attrs.maxMcastQpAttach(); i++) {
            keep(b.pd.createQp(new QpInitAttributes().type(QpType.UD).cq(b.cq))).attachMcast(GROUP, 0);
        }
        QueuePair extra = keep(b.pd.createQp(new QpInitAttributes().type(QpType.UD).cq(b.cq)));
        assertThrows(ResourceLimitException.class, () -> extra.attachMcast(GROUP, 0));
        extra.attachMcast(Gid.parse("239.1.2.4"), 0); // another group has room
    }
}
