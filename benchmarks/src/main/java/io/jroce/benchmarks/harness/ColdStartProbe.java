package io.jroce.benchmarks.harness;

import io.jroce.rnic.ProgressMode;
import io.jroce.rnic.SoftRnic;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.RemoteQp;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;

/**
 * One cold start, in a fresh JVM that {@link ColdStartCommand} launches: two devices on loopback
 * (127.0.0.1 and 127.0.0.2), an RC QP pair connected with {@link QpConnector}'s defaults (ACK
 * timeout 14, 67 ms), and one signaled 64 B RDMA WRITE. Prints one {@link ColdStartResult} line:
 * how long the JVM took to reach {@code main}, the two opens, the resources and the connection,
 * the WRITE from post to completion, and the requester's retransmitted packets (a retransmission
 * means the first operation was taken for a lost packet).
 */
public final class ColdStartProbe {
    static final int LENGTH = 64;

    private ColdStartProbe() {
    }

    /**
     * {@code MODE PORT [jmx]}: the progress mode ({@code EVENT_LOOP} or {@code INVOKER}), the UDP port of
     * both devices, and {@code jmx} to open them with their MBeans, as a program that does not turn
     * JMX off gets them (the first registration builds the JVM's platform MBean server).
     */
    public static void main(String[] args) throws Exception {
        long jvmMs = ManagementFactory.getRuntimeMXBean().getUptime();
        ColdStartResult r = run(ProgressMode.valueOf(args[0]), Integer.parseInt(args[1]), jvmMs,
            args.length > 2 && args[2].equals("jmx"));
        System.out.println(r.line());
        System.exit(r.ok() ? 0 : 1);
    }

    /** Runs the probe in this JVM (warm or cold: the caller knows), the devices without MBeans. */
    static ColdStartResult run(ProgressMode mode, int port, long jvmMs) throws InterruptedException {
        return run(mode, port, jvmMs, false);
    }

    /** Runs the probe in this JVM, the devices with their MBeans or without. */
    static ColdStartResult run(ProgressMode mode, int port, long jvmMs, boolean jmx) throws InterruptedException {
        long t0 = System.nanoTime();
        try (RdmaDevice a = SoftRnic.builder().name("cold0").address("127.0.0.1").udpPort(port).progressMode(mode)
                 .jmx(jmx).open();
             RdmaDevice b = SoftRnic.builder().name("cold1").address("127.0.0.2").udpPort(port).progressMode(mode)
                 .jmx(jmx).open()) {
            long opened = System.nanoTime();
            try (ProtectionDomain pdA = a.allocPd();
                 ProtectionDomain pdB = b.allocPd();
                 MemoryRegion src = pdA.allocateMemory(4096, AccessFlags.LOCAL_WRITE);
                 MemoryRegion dst = pdB.allocateMemory(4096, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
                 CompletionQueue cqA = a.createCq(16);
                 CompletionQueue cqB = b.createCq(16);
                 QueuePair qpA = pdA.createQp(new QpInitAttributes().type(QpType.RC).cq(cqA));
                 QueuePair qpB = pdB.createQp(new QpInitAttributes().type(QpType.RC).cq(cqB))) {
                QpConnector rc = QpConnector.rc();
                rc.connect(qpA, 0x100, RemoteQp.of(qpB, 0x200, b.gids().get(0), port));
                rc.connect(qpB, 0x200, RemoteQp.of(qpA, 0x100, a.gids().get(0), port));
                for (int i = 0; i < LENGTH; i++) {
                    src.buffer().put(i, (byte) (i + 1));
                }
                long posted = System.nanoTime();
                qpA.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
                    .sgList(ScatterGatherEntry.of(src, 0, LENGTH)).remoteAddress(dst.address()).rkey(dst.rkey()));
                WorkCompletion wc = new WorkCompletion();
                boolean done = cqA.pollBlocking(wc, 10, TimeUnit.SECONDS);
                long completed = System.nanoTime();
                boolean landed = true;
                for (int i = 0; i < LENGTH; i++) {
                    landed &= dst.buffer().get(i) == (byte) (i + 1);
                }
                String status = !done ? "NO_COMPLETION" : wc.status() != WcStatus.SUCCESS ? wc.status().name()
                    : landed ? "SUCCESS" : "DATA_MISMATCH";
                return new ColdStartResult(mode.name(), jvmMs, ms(opened - t0), ms(posted - opened),
                    ms(completed - posted), a.counters().getOrDefault("retransmitted_pkts", 0L), status);
            }
        }
    }

    private static double ms(long ns) {
        return ns / 1e6;
    }
}
