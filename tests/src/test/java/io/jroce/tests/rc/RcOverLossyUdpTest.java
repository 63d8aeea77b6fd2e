package io.jroce.tests.rc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.ByteOrder;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.jroce.rnic.SoftRnic;
import io.jroce.stack.fault.FaultPolicy;
import io.jroce.stack.fault.LinkConditions;
import io.jroce.stack.fault.PacketTrace;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.RemoteQp;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/**
 * RC over real UDP sockets with faults injected into both RNICs' sends (10% loss, duplication,
 * reordering): every operation completes once, in order, byte-exact. Timers run on the real clock,
 * so only the number of retransmissions varies from run to run, never the outcome.
 */
class RcOverLossyUdpTest {
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ
        | AccessFlags.REMOTE_ATOMIC;
    private static final int SIZE = 256 * 1024;

    private static int freePort() throws Exception {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    @Test
    void everyOperationSurvivesLossDuplicationAndReordering() throws Exception {
        long seed = 20261122;
        LinkConditions lossy = LinkConditions.ideal().loss(0.10).duplicate(0.02).reorder(0.05, 200_000);
        PacketTrace traceA = new PacketTrace(4096);
        PacketTrace traceB = new PacketTrace(4096);
        int portA = freePort();
        int portB = freePort();
        try (RdmaDevice a = SoftRnic.builder().name("lossyA").address("127.0.0.1").udpPort(portA)
                 .faults(new FaultPolicy(seed).defaults(lossy), traceA).open();
             RdmaDevice b = SoftRnic.builder().name("lossyB").address("127.0.0.1").udpPort(portB)
                 .faults(new FaultPolicy(seed + 1).defaults(lossy), traceB).open();
             ProtectionDomain pdA = a.allocPd();
             ProtectionDomain pdB = b.allocPd();
             MemoryRegion mrA = pdA.allocateMemory(4 * SIZE, ACCESS);
             MemoryRegion mrB = pdB.allocateMemory(4 * SIZE, ACCESS);
             CompletionQueue cqA = a.createCq(64);
             CompletionQueue cqB = b.createCq(64);
             QueuePair qpA = pdA.createQp(new QpInitAttributes().cq(cqA));
             QueuePair qpB = pdB.createQp(new QpInitAttributes().cq(cqB))) {
            connect(qpA, b, qpB.qpNum(), portB);
            connect(qpB, a, qpA.qpNum(), portA);
            byte[] data = new byte[SIZE];
            new Random(seed).nextBytes(data);
            mrA.buffer().put(0, data);
            qpB.postRecv(new ReceiveWorkRequest().wrId(100).sgList(ScatterGatherEntry.of(mrB, 0, SIZE)));
            mrB.buffer().order(ByteOrder.nativeOrder()).putLong(3 * SIZE, 41);

            qpA.postSend(new SendWorkRequest().wrId(0).opcode(WrOpcode.SEND_WITH_IMM).immData(7)
                .sendFlags(SendFlags.SIGNALED).sgList(ScatterGatherEntry.of(mrA, 0, SIZE)));
            qpA.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
                .remoteAddress(mrB.address() + SIZE).rkey(mrB.rkey()).sgList(ScatterGatherEntry.of(mrA, 0, SIZE)));
            qpA.postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.RDMA_READ).sendFlags(SendFlags.SIGNALED)
                .remoteAddress(mrB.address() + SIZE).rkey(mrB.rkey()).sgList(ScatterGatherEntry.of(mrA, SIZE, SIZE)));
            qpA.postSend(new SendWorkRequest().wrId(3).opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).compareAdd(1)
                .sendFlags(SendFlags.SIGNALED).remoteAddress(mrB.address() + 3L * SIZE).rkey(mrB.rkey())
                .sgList(ScatterGatherEntry.of(mrA, 3 * SIZE, 8)));

            WorkCompletion wc = new WorkCompletion();
            for (int i = 0; i < 4; i++) {
                assertTrue(cqA.pollBlocking(wc, 60, TimeUnit.SECONDS), "completion " + i + " never came; trace:\n"
                    + traceA.dump(100));
                assertEquals(WcStatus.SUCCESS, wc.status(), wc + "\n" + traceA.dump(100));
                assertEquals(i, wc.wrId(), "completions in posted order");
            }
            assertTrue(cqB.pollBlocking(wc, 60, TimeUnit.SECONDS));
            assertEquals(WcStatus.SUCCESS, wc.status());
            assertEquals(SIZE, wc.byteLen());
            assertEquals(7, wc.immData());
            assertEquals(false, cqA.poll(wc), "exactly one completion per work request");
            assertEquals(false, cqB.poll(wc));

            byte[] got = new byte[SIZE];
            mrB.buffer().get(0, got);
            assertArrayEquals(data, got, "SEND");
            mrB.buffer().get(SIZE, got);
            assertArrayEquals(data, got, "RDMA WRITE");
            mrA.buffer().get(SIZE, got);
            assertArrayEquals(data, got, "RDMA READ");
            assertEquals(41, mrA.buffer().order(ByteOrder.nativeOrder()).getLong(3 * SIZE), "fetch-add original");
            assertEquals(42, mrB.buffer().order(ByteOrder.nativeOrder()).getLong(3 * SIZE), "applied exactly once");
            assertTrue(traceA.count(io.jroce.stack.fault.Fate.DROPPED) > 0, "faults were really injected");
            assertTrue(a.counters().get("retransmitted_pkts") > 0, "and recovered by retransmission");
        }
    }

    private static void connect(QueuePair qp, RdmaDevice peer, int peerQpn, int peerPort) {
        // timeout 15 = 134 ms: a lost tail packet is resent soon; retry_cnt 7 makes exhaustion
        // need eight losses of the same packet in a row (10^-8 at 10% loss), or over a second with
        // no progress at all, which a loaded 2-core CI machine could reach at 16.8 ms (timeout 12).
        QpConnector.rc().accessFlags(ACCESS).rdAtomic(4).minRnrTimer(1).timeout(15)
            .connect(qp, 0xfff000, new RemoteQp(peerQpn, 0xfff000, peer.gids().get(0), peerPort));
    }
}
