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
    void qpsThatLeaveWhileWaitingHandOnTheirTurn() {
        SimulatedFabric fabric = SimulatedFabric.builder().seed(1).build();
        try (Devices d = new Devices(fabric, WAITERS + 1, 4);
             MemoryRegion mrA = d.pdA.allocateMemory(2 * HOLDER_READ, ACCESS);
             MemoryRegion mrB = d.pdB.allocateMemory(2 * HOLDER_READ, ACCESS)) {
            List<QueuePair> qps = d.qpsA;
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

            List<WorkCompletion> wcs = FabricCompletions.await(fabric, d.cqA, WAITERS + 1, 1_000 * MS,
                () -> "\ncounters a=" + d.a.counters() + "\n" + fabric.trace().dump(50));
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
    void manyQpsContendingForTheBudgetAllComplete() {
        int qpCount = 48;
        int messages = 3;
        int length = 40 * 256; // 40 packets at MTU 256: more than a quantum
        SimulatedFabric fabric = SimulatedFabric.builder().seed(2).build();
        try (Devices d = new Devices(fabric, qpCount, messages);
             MemoryRegion mrA = d.pdA.allocateMemory(length, ACCESS);
             MemoryRegion mrB = d.pdB.allocateMemory(qpCount * length, ACCESS)) {
            List<QueuePair> qps = d.qpsA;
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
            List<WorkCompletion> wcs = FabricCompletions.await(fabric, d.cqA, qpCount * messages, 10_000 * MS,
                () -> "\ncounters a=" + d.a.counters());
            assertEquals(qpCount * messages, wcs.stream().filter(wc -> wc.status() == WcStatus.SUCCESS).count(),
                wcs.toString());
            byte[] landed = new byte[length];
            for (int i = 0; i < qpCount; i++) {
                mrB.buffer().get(i * length, landed);
                assertArrayEquals(data, landed, "QP " + i);
            }
            assertEquals(0L, d.a.counters().get("retransmitted_pkts"), "the budget kept the receiver from dropping");
        }
    }

    /**
     * Two devices on {@code fabric}, each with a PD and a CQ, and {@code count} connected RC pairs at
     * MTU 256, A's QP i with B's QP i (A's send queues {@code sendWr} deep). Closes all of it.
     */
    private static final class Devices implements AutoCloseable {
        final RdmaDevice a;
        final RdmaDevice b;
        final ProtectionDomain pdA;
        final ProtectionDomain pdB;
        final CompletionQueue cqA;
        final CompletionQueue cqB;
        final List<QueuePair> qpsA = new ArrayList<>();
        private final List<QueuePair> qpsB = new ArrayList<>();

        Devices(SimulatedFabric fabric, int count, int sendWr) {
            a = SoftRnic.builder().name("jroce0").address("10.0.0.1").openOn(fabric);
            b = SoftRnic.builder().name("jroce1").address("10.0.0.2").openOn(fabric);
            pdA = a.allocPd();
            pdB = b.allocPd();
            cqA = a.createCq(1024);
            cqB = b.createCq(1024);
            QpConnector rc = QpConnector.rc().accessFlags(ACCESS).pathMtu(Mtu.MTU_256).retryCount(7).rnrRetry(7);
            for (int i = 0; i < count; i++) {
                QueuePair qa = pdA.createQp(new QpInitAttributes().cq(cqA).maxSendWr(sendWr).maxRecvWr(1));
                QueuePair qb = pdB.createQp(new QpInitAttributes().cq(cqB).maxSendWr(1).maxRecvWr(1));
                rc.connect(qa, 0x100, RemoteQp.of(qb, 0x200, b.gids().get(0)));
                rc.connect(qb, 0x200, RemoteQp.of(qa, 0x100, a.gids().get(0)));
                qpsA.add(qa);
                qpsB.add(qb);
            }
        }

        @Override
        public void close() {
            qpsA.forEach(QueuePair::close);
            qpsB.forEach(QueuePair::close);
            cqA.close();
            cqB.close();
            pdA.close();
            pdB.close();
            a.close();
            b.close();
        }
    }

    private static long writesSent(SimulatedFabric fabric) {
        return fabric.trace().events().stream().filter(TransmitBudgetFabricTest::isWrite).count();
    }

    private static boolean isWrite(TraceEvent e) {
        return e.opcodeName().contains("WRITE");
    }
}
