package io.jroce.rnic;

import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.stack.udp.LoopbackWarmUp;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.RemoteQp;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Once per JVM, before the first device on UDP opens: two devices on a private
 * {@link SimulatedFabric} connect an RC QP pair and run a SEND, an RDMA WRITE, an RDMA READ and a
 * FETCH_AND_ADD, on the fabric's virtual clock. That loads and initialises the classes, lambdas and
 * code paths the application's first operation would otherwise load while its ACK timer runs (on a
 * cold JVM the first WRITE took 30-40 ms of a 67 ms timeout in the event-loop mode, the resources
 * and connection before it another 35-45 ms: docs/benchmarks.md). No device socket is opened and
 * no packet reaches any network; the devices have no MBean, log or capture. Then, once per JVM and
 * progress mode, the sockets' own paths, which the fabric does not use: a private transport of the
 * mode's kind sends a few datagrams to itself on 127.0.0.1 ({@link LoopbackWarmUp}). It costs the
 * first open() about what it saves; {@value Configuration#WARM_UP_PROP_NAME}{@code =false} turns it
 * off. A failure is logged at debug level and never fails the open.
 */
final class DataPathWarmUp {
    private static final Logger LOG = LoggerFactory.getLogger(DataPathWarmUp.class);
    private static final AtomicBoolean DONE = new AtomicBoolean();
    private static final AtomicBoolean EVENT_LOOP_SOCKETS_DONE = new AtomicBoolean();
    private static final AtomicBoolean DIRECT_SOCKETS_DONE = new AtomicBoolean();
    /** Virtual time the exchange may take: it needs a few microseconds of it. */
    private static final long MAX_VIRTUAL_NS = 1_000_000_000L;

    private DataPathWarmUp() {
    }

    /**
     * Runs what this JVM has not run yet of the warm-up for a device of {@code mode} (if the
     * property allows it).
     */
    static void once(ProgressMode mode) {
        if (!Configuration.warmUp()) {
            return;
        }
        if (DONE.compareAndSet(false, true)) {
            long start = System.nanoTime();
            try {
                run();
                LOG.debug("warmed the data path in {} ms", (System.nanoTime() - start) / 1_000_000);
            } catch (RuntimeException | LinkageError e) {
                LOG.debug("warming the data path failed; the first operation will be slower", e);
            }
        }
        AtomicBoolean sockets = mode == ProgressMode.INVOKER ? DIRECT_SOCKETS_DONE : EVENT_LOOP_SOCKETS_DONE;
        if (sockets.compareAndSet(false, true)) {
            long start = System.nanoTime();
            try {
                int back = mode == ProgressMode.INVOKER ? LoopbackWarmUp.direct() : LoopbackWarmUp.eventLoop();
                LOG.debug("warmed the {} sockets in {} ms ({} datagrams came back)", mode,
                    (System.nanoTime() - start) / 1_000_000, back);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // the open goes on; its caller sees the interrupt
            } catch (RuntimeException | LinkageError e) {
                LOG.debug("warming the {} sockets failed; the first operation will be slower", mode, e);
            }
        }
    }

    static void run() {
        SimulatedFabric fabric = new SimulatedFabric();
        try (RdmaDevice a = SoftRnic.builder().name("warm-up-a").address("192.0.2.1").jmx(false).withoutEventLog().openOn(fabric);
             RdmaDevice b = SoftRnic.builder().name("warm-up-b").address("192.0.2.2").jmx(false).withoutEventLog().openOn(fabric);
             ProtectionDomain pdA = a.allocPd();
             ProtectionDomain pdB = b.allocPd();
             MemoryRegion local = pdA.allocateMemory(4096, AccessFlags.LOCAL_WRITE);
             MemoryRegion remote = pdB.allocateMemory(4096, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE
                 | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC);
             CompletionQueue cqA = a.createCq(16);
             CompletionQueue cqB = b.createCq(16);
             QueuePair qpA = pdA.createQp(new QpInitAttributes().type(QpType.RC).cq(cqA));
             QueuePair qpB = pdB.createQp(new QpInitAttributes().type(QpType.RC).cq(cqB))) {
            int access = AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC;
            QpConnector.rc().accessFlags(access).connect(qpA, 1, RemoteQp.of(qpB, 2, b.gids().get(0)));
            QpConnector.rc().accessFlags(access).connect(qpB, 2, RemoteQp.of(qpA, 1, a.gids().get(0)));
            qpB.postRecv(new ReceiveWorkRequest().wrId(1).sgList(ScatterGatherEntry.of(remote, 0, 64)));
            post(qpA, new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND), local);
            post(qpA, new SendWorkRequest().wrId(2).opcode(WrOpcode.RDMA_WRITE)
                .remoteAddress(remote.address() + 64).rkey(remote.rkey()), local);
            post(qpA, new SendWorkRequest().wrId(3).opcode(WrOpcode.RDMA_READ)
                .remoteAddress(remote.address() + 64).rkey(remote.rkey()), local);
            qpA.postSend(new SendWorkRequest().wrId(4).opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).sendFlags(SendFlags.SIGNALED)
                .sgList(ScatterGatherEntry.of(local, 128, 8)).remoteAddress(remote.address() + 128).rkey(remote.rkey())
                .compareAdd(1));
            WorkCompletion wc = new WorkCompletion();
            int[] got = {0, 0};
            boolean done = fabric.runUntil(() -> {
                while (cqA.poll(wc)) {
                    got[0]++;
                }
                while (cqB.poll(wc)) {
                    got[1]++;
                }
                return got[0] == 4 && got[1] == 1;
            }, MAX_VIRTUAL_NS);
            if (!done) {
                throw new IllegalStateException("the warm-up exchange did not complete: " + got[0] + " of 4 and "
                    + got[1] + " of 1 completions");
            }
        }
    }

    private static void post(QueuePair qp, SendWorkRequest wr, MemoryRegion local) {
        qp.postSend(wr.sendFlags(SendFlags.SIGNALED).sgList(ScatterGatherEntry.of(local, 0, 64)));
    }
}
