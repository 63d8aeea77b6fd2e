package io.jroce.tools.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.rnic.ProgressMode;
import io.jroce.rnic.SoftRnic;
import io.jroce.stack.fault.FaultPolicy;
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
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Two jroce devices on UDP loopback, A the requester and B the responder, each sending through its
 * own fault policy, with A capturing what it sends and receives ({@code SoftRnic.Builder.pcap}).
 * A fault policy drops or copies a packet before the transport sees it, so A's capture is what a
 * wire capture next to A would hold: a packet A's policy dropped is missing from it, as is a
 * packet of B's that B's policy dropped.
 */
final class FaultedRun implements AutoCloseable {
    static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ
        | AccessFlags.REMOTE_ATOMIC;
    static final int SIZE = 64 * 1024;
    /** A's first PSN, for the warm-up WRITE: the faulted operation starts three PSNs before the 24-bit wrap. */
    static final int PSN_A = 0xFFFFFC;
    static final int PSN_B = 0x123456;

    final FaultPolicy faultsA = new FaultPolicy(1);
    final FaultPolicy faultsB = new FaultPolicy(2);
    final Path pcap;
    private RdmaDevice a;
    private RdmaDevice b;
    private ProtectionDomain pdA;
    private ProtectionDomain pdB;
    MemoryRegion mrA;
    MemoryRegion mrB;
    int portA;
    int portB;
    CompletionQueue cqA;
    CompletionQueue cqB;
    QueuePair qpA;
    QueuePair qpB;

    /** Where each device writes its event log, or null: none. */
    private Path logA;
    private Path logB;
    /** B's address: 127.0.0.1 as A's, or its own where event logs must tell the two apart. */
    private String addressB = "127.0.0.1";

    FaultedRun(Path pcap) {
        this.pcap = pcap;
    }

    /**
     * Both devices write event logs, and B moves to 127.0.0.2 so that each log's addresses name
     * one device (explain finds a packet's receiver by its address).
     */
    FaultedRun eventLogs(Path a, Path b) {
        logA = a;
        logB = b;
        addressB = "127.0.0.2";
        return this;
    }

    /** Opens both devices with the rules added so far, and connects an RC QP on each. */
    FaultedRun open(QpConnector connector) throws Exception {
        portA = freePort("127.0.0.1");
        portB = freePort(addressB);
        // The event-loop mode: each device handles packets as they come, not when its owner polls.
        SoftRnic.Builder builderA = SoftRnic.builder().name("explainA").address("127.0.0.1").udpPort(portA)
            .progressMode(ProgressMode.EVENT_LOOP).faults(faultsA, new PacketTrace(256)).pcap(pcap);
        SoftRnic.Builder builderB = SoftRnic.builder().name("explainB").address(addressB).udpPort(portB)
            .progressMode(ProgressMode.EVENT_LOOP).faults(faultsB, new PacketTrace(256));
        a = (logA == null ? builderA : builderA.eventLog(logA)).open();
        b = (logB == null ? builderB : builderB.eventLog(logB)).open();
        pdA = a.allocPd();
        pdB = b.allocPd();
        mrA = pdA.allocateMemory(SIZE, ACCESS);
        mrB = pdB.allocateMemory(SIZE, ACCESS);
        cqA = a.createCq(16);
        cqB = b.createCq(16);
        qpA = pdA.createQp(new QpInitAttributes().cq(cqA));
        qpB = pdB.createQp(new QpInitAttributes().cq(cqB));
        connector.accessFlags(ACCESS).connect(qpA, PSN_A, new RemoteQp(qpB.qpNum(), PSN_B, b.gids().get(0), portB));
        connector.accessFlags(ACCESS).connect(qpB, PSN_B, new RemoteQp(qpA.qpNum(), PSN_A, a.gids().get(0), portA));
        warmUp();
        return this;
    }

    /**
     * One RDMA WRITE before the faulted operation: the first packets through a fresh JVM's path
     * take tens of milliseconds (class loading, JIT), long enough for a spurious ACK timeout.
     */
    private void warmUp() throws InterruptedException {
        qpA.postSend(new SendWorkRequest().wrId(0).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
            .remoteAddress(mrB.address()).rkey(mrB.rkey()).sgList(ScatterGatherEntry.of(mrA, 0, 64)));
        completes();
    }

    void postReceive(int length) {
        qpB.postRecv(new ReceiveWorkRequest().wrId(100).sgList(ScatterGatherEntry.of(mrB, 0, length)));
    }

    void send(int length) {
        qpA.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(mrA, 0, length)));
    }

    void read(int length) {
        qpA.postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.RDMA_READ).sendFlags(SendFlags.SIGNALED)
            .remoteAddress(mrB.address()).rkey(mrB.rkey()).sgList(ScatterGatherEntry.of(mrA, 0, length)));
    }

    /** Waits for A's completion, which must be a success. */
    /** Waits until B's counter {@code name} has counted something (B sent an RNR NAK, say). */
    void awaitCounterOfB(String name) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (b.counters().getOrDefault(name, 0L) == 0) {
            assertTrue(System.nanoTime() - deadline < 0, () -> "B never counted " + name + ": " + b.counters());
            Thread.sleep(1);
        }
    }

    void completes() throws InterruptedException {
        WorkCompletion wc = new WorkCompletion();
        assertTrue(cqA.pollBlocking(wc, 30, TimeUnit.SECONDS), "the work request never completed");
        assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
    }

    /** Closes both devices, which flushes A's capture. */
    @Override
    public void close() {
        for (AutoCloseable c : new AutoCloseable[] {qpA, qpB, cqA, cqB, mrA, mrB, pdA, pdB, a, b}) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception e) {
                    // closing a half-opened run: the test's own failure says what went wrong
                }
            }
        }
    }

    private static int freePort(String address) throws Exception {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getByName(address))) {
            return s.getLocalPort();
        }
    }
}
