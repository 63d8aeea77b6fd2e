package io.jroce.rnic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.stack.fault.FaultRule;
import io.jroce.stack.fault.PacketMatch;
import io.jroce.stack.fault.TraceEvent;
import io.jroce.stack.wire.Operation;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.RemoteQp;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/**
 * The device's transmit budget shared by many QPs of one device, end to end on a fabric: QPs that
 * wait for it and then leave (ERR) must not take with them the wake-ups of the QPs behind them.
 */
class TransmitBudgetFabricTest {
    private static final long MS = 1_000_000;
    /** The device's budget: 256 packets; a READ of 256 packets at MTU 256 holds all of it. */
    private static final int HOLDER_READ = 256 * 256;
    private static final int WAITERS = 17;
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;

    @Test
    void qpsThatLeaveWhileWaitingHandOnTheirTurn() throws Exception {
        SimulatedFabric fabric = SimulatedFabric.builder().seed(1).build();
        List<QueuePair> qps = new ArrayList<>(); // A's; B's follow them
        try (RdmaDevice a = SoftRnic.builder().name("jroce0").address("10.0.0.1").openOn(fabric);
             RdmaDevice b = SoftRnic.builder().name("jroce1").address("10.0.0.2").openOn(fabric);
             ProtectionDomain pdA = a.allocPd();
             ProtectionDomain pdB = b.allocPd();
             CompletionQueue cqA = a.createCq(1024);
             CompletionQueue cqB = b.createCq(1024);
             MemoryRegion mrA = pdA.allocateMemory(2 * HOLDER_READ, ACCESS);
             MemoryRegion mrB = pdB.allocateMemory(2 * HOLDER_READ, ACCESS);
             AutoCloseable closeQps = () -> qps.forEach(QueuePair::close)) {
            connectPairs(WAITERS + 1, 4, a, pdA, cqA, b, pdB, cqB, qps);
            // QP 0 holds the whole budget: its READ request is lost, so its 256 PSNs stay charged.
            fabric.faults().add(FaultRule.drop(PacketMatch.operation(Operation.RDMA_READ_REQUEST)));
            qps.get(0).postSend(new SendWorkRequest().wrId(100).opcode(WrOpcode.RDMA_READ).sendFlags(SendFlags.SIGNALED)
                .sgList(ScatterGatherEntry.of(mrA, 0, HOLDER_READ)).remoteAddress(mrB.address()).rkey(mrB.rkey()));
            fabric.runUntil(() -> false, MS);
            byte[] last = {1, 2, 3, 4, 5, 6, 7, 8};
            mrA.buffer().put(HOLDER_READ, last);
            for (int i = 1; i <= WAITERS; i++) {
                qps.get(i).postSend(new SendWorkRequest().wrId(i).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
                    .sgList(ScatterGatherEntry.of(mrA, HOLDER_READ, last.length))
                    .remoteAddress(mrB.address() + HOLDER_READ + 8L * i).rkey(mrB.rkey()));
            }
            fabric.runUntil(() -> false, MS);
            assertEquals(0, writesSent(fabric), "the budget holds every WRITE back");

            // The first 16 waiters, one wake-up's worth, leave; then the budget is given back at once.
            for (int i = 1; i < WAITERS; i++) {
                qps.get(i).modify(new QpAttributes().state(QpState.ERR));
            }
            qps.get(0).modify(new QpAttributes().state(QpState.ERR));

            List<WorkCompletion> wcs = FabricCompletions.await(fabric, cqA, WAITERS + 1, 1_000 * MS,
                () -> "\ncounters a=" + a.counters() + "\n" + fabric.trace().dump(50));
            WorkCompletion lastWaiter = wcs.stream().filter(wc -> wc.wrId() == WAITERS).findFirst().orElseThrow();
            assertEquals(WcStatus.SUCCESS, lastWaiter.status(), wcs.toString());
            assertEquals(WAITERS, wcs.stream().filter(wc -> wc.status() == WcStatus.WR_FLUSH_ERR).count(), wcs.toString());
            byte[] landed = new byte[last.length];
            mrB.buffer().get(HOLDER_READ + 8 * WAITERS, landed);
            assertArrayEquals(last, landed);
            assertEquals(1, writesSent(fabric), "only the last waiter's WRITE went out");
        }
    }

    /**
     * Many QPs contend for the budget, each with a few messages larger than a wake's quantum: every
     * message completes, and the budget is whole again at the end. A QP woken that sends in an ACK's
     * turn first finds nothing left at the turn it was woken for; that turn must still count.
     */
    @Test
    void manyQpsContendingForTheBudgetAllComplete() throws Exception {
        int qpCount = 48;
        int messages = 3;
        int length = 40 * 256; // 40 packets at MTU 256: more than a quantum
        SimulatedFabric fabric = SimulatedFabric.builder().seed(2).build();
        List<QueuePair> qps = new ArrayList<>();
        try (RdmaDevice a = SoftRnic.builder().name("jroce0").address("10.0.0.1").openOn(fabric);
             RdmaDevice b = SoftRnic.builder().name("jroce1").address("10.0.0.2").openOn(fabric);
             ProtectionDomain pdA = a.allocPd();
             ProtectionDomain pdB = b.allocPd();
             CompletionQueue cqA = a.createCq(1024);
             CompletionQueue cqB = b.createCq(1024);
             MemoryRegion mrA = pdA.allocateMemory(length, ACCESS);
             MemoryRegion mrB = pdB.allocateMemory(qpCount * length, ACCESS);
             AutoCloseable closeQps = () -> qps.forEach(QueuePair::close)) {
            connectPairs(qpCount, messages, a, pdA, cqA, b, pdB, cqB, qps);
            byte[] data = new byte[length];
            new java.util.Random(5).nextBytes(data);
            mrA.buffer().put(0, data);
            for (int m = 0; m < messages; m++) {
                for (int i = 0; i < qpCount; i++) {
                    qps.get(i).postSend(new SendWorkRequest().wrId(i * 10L + m).opcode(WrOpcode.RDMA_WRITE)
                        .sendFlags(SendFlags.SIGNALED).sgList(ScatterGatherEntry.of(mrA, 0, length))
                        .remoteAddress(mrB.address() + (long) i * length).rkey(mrB.rkey()));
                }
            }
            List<WorkCompletion> wcs = FabricCompletions.await(fabric, cqA, qpCount * messages, 10_000 * MS,
                () -> "\ncounters a=" + a.counters());
            assertEquals(qpCount * messages, wcs.stream().filter(wc -> wc.status() == WcStatus.SUCCESS).count(),
                wcs.toString());
            byte[] landed = new byte[length];
            for (int i = 0; i < qpCount; i++) {
                mrB.buffer().get(i * length, landed);
                assertArrayEquals(data, landed, "QP " + i);
            }
            assertEquals(0L, a.counters().get("retransmitted_pkts"), "the budget kept the receiver from dropping");
        }
    }

    /**
     * Makes {@code count} connected RC pairs at MTU 256, A's QP i with B's QP i: {@code qps} gets A's
     * QPs first, in order, then B's.
     */
    private static void connectPairs(int count, int sendWr, RdmaDevice a, ProtectionDomain pdA, CompletionQueue cqA,
                                     RdmaDevice b, ProtectionDomain pdB, CompletionQueue cqB, List<QueuePair> qps) {
        QpConnector rc = QpConnector.rc().accessFlags(ACCESS).pathMtu(Mtu.MTU_256).retryCount(7).rnrRetry(7);
        List<QueuePair> peers = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            QueuePair qa = pdA.createQp(new QpInitAttributes().cq(cqA).maxSendWr(sendWr).maxRecvWr(1));
            QueuePair qb = pdB.createQp(new QpInitAttributes().cq(cqB).maxSendWr(1).maxRecvWr(1));
            rc.connect(qa, 0x100, RemoteQp.of(qb, 0x200, b.gids().get(0)));
            rc.connect(qb, 0x200, RemoteQp.of(qa, 0x100, a.gids().get(0)));
            qps.add(qa);
            peers.add(qb);
        }
        qps.addAll(peers);
    }

    private static long writesSent(SimulatedFabric fabric) {
        return fabric.trace().events().stream().filter(TransmitBudgetFabricTest::isWrite).count();
    }

    private static boolean isWrite(TraceEvent e) {
        return e.opcodeName().contains("WRITE");
    }
}
