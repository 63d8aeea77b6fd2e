package io.jroce.rnic.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.jroce.rnic.SoftRnic;
import io.jroce.stack.stats.Counters;
import io.jroce.stack.wire.Opcode;
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
 * The invoker progress mode on an in-memory pipe: the application's thread does the work when
 * it polls, the fallback thread serves a device nobody polls, timers still fire, several pollers
 * share a device. Deadlines only bound a failure; nothing here waits for a time to pass.
 */
class InvokerModeTest {
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ
        | AccessFlags.REMOTE_ATOMIC;
    private static final long DEADLINE_NS = TimeUnit.SECONDS.toNanos(30);

    private final MemoryPipe pipe = new MemoryPipe("10.0.0.1", "10.0.0.2");
    private final Side a = new Side("inv-a", "10.0.0.1", pipe.a);
    // B's fallback waits an hour after B's application last polled: once it has, only that thread reads.
    private final Side b = new Side(SoftRnic.builder().name("inv-b").address("10.0.0.2")
        .invokerFallbackAfter(1, TimeUnit.HOURS), pipe.b);

    private static final class Side {
        final RdmaDevice device;
        final ProtectionDomain pd;
        final MemoryRegion mr;
        final List<CompletionQueue> cqs = new ArrayList<>();
        final List<QueuePair> qps = new ArrayList<>();

        Side(String name, String address, MemoryPipe.End end) {
            this(SoftRnic.builder().name(name).address(address), end);
        }

        Side(SoftRnic.Builder builder, MemoryPipe.End end) {
            device = builder.open(end, new Counters());
            pd = device.allocPd();
            mr = pd.allocateMemory(1 << 20, ACCESS);
        }

        QueuePair newQp() {
            CompletionQueue cq = device.createCq(256);
            cqs.add(cq);
            QueuePair qp = pd.createQp(new QpInitAttributes().cq(cq).maxSendWr(64).maxRecvWr(64).maxSendSge(2)
                .maxRecvSge(2).maxInlineData(64));
            qps.add(qp);
            return qp;
        }

        void close() {
            qps.forEach(QueuePair::close);
            mr.close();
            cqs.forEach(CompletionQueue::close);
            pd.close();
            device.close();
        }
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
    }

    private static void connect(QpConnector rc, QueuePair qa, RdmaDevice da, QueuePair qb, RdmaDevice db) {
        rc.connect(qa, 0x100, RemoteQp.of(qb, 0x200, db.gids().get(0)));
        rc.connect(qb, 0x200, RemoteQp.of(qa, 0x100, da.gids().get(0)));
    }

    /** Waits until B's fallback thread sleeps without watching the sockets: B's application alone reads them. */
    private void awaitFallbackSteppedBack() {
        long end = System.nanoTime() + DEADLINE_NS;
        while (!pipe.b.sleepingUnwatched) {
            assertTrue(System.nanoTime() - end < 0, "B's fallback thread never stepped back");
            Thread.onSpinWait();
        }
    }

    /** Busy-polls {@code cq} on this thread until a completion comes. */
    private static WorkCompletion spin(CompletionQueue cq) {
        WorkCompletion wc = new WorkCompletion();
        long end = System.nanoTime() + DEADLINE_NS;
        while (!cq.poll(wc)) {
            if (System.nanoTime() - end > 0) {
                fail("no completion within the deadline");
            }
        }
        return wc;
    }

    @Test
    void thePollingThreadReadsTheSocketsAndSends() {
        QueuePair qa = a.newQp();
        QueuePair qb = b.newQp();
        connect(QpConnector.rc().accessFlags(ACCESS), qa, a.device, qb, b.device);
        byte[] data = new byte[3000];
        new Random(1).nextBytes(data);
        a.mr.buffer().put(0, data);
        qb.postRecv(new ReceiveWorkRequest().wrId(7).sgList(ScatterGatherEntry.of(b.mr, 0, 4096)));
        b.device.progress(); // B's application is now progressing it: its fallback steps back
        awaitFallbackSteppedBack();
        qa.postSend(new SendWorkRequest().wrId(9).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(a.mr, 0, data.length)));

        WorkCompletion recv = spin(b.cqs.get(0));
        assertEquals(WcStatus.SUCCESS, recv.status(), recv.toString());
        assertEquals(data.length, recv.byteLen());
        byte[] got = new byte[data.length];
        b.mr.buffer().get(0, got);
        assertArrayEquals(data, got);
        assertSame(Thread.currentThread(), pipe.b.lastReader, "the polling thread read B's packets itself");
        // The ACK B's round sent waits for its application's next call (a socket's send queue does
        // too: the round defers its flush); B's fallback steps in only after an hour here.
        assertEquals(List.of(), pipe.b.sentOpcodes, "nothing left B before its application's next call");
        b.device.progress();
        assertEquals(List.of(Opcode.RC_ACKNOWLEDGE), pipe.b.sentOpcodes);
        WorkCompletion send = spin(a.cqs.get(0));
        assertEquals(WcStatus.SUCCESS, send.status(), send.toString());
        assertEquals(9, send.wrId());
    }

    /**
     * A ping-pong as send_lat runs it: B's application polls its receive, answers with a SEND, then
     * calls again. The ACK of A's request, which B's round produced before the answer was posted,
     * leaves after the answer (AcknowledgementHold), so that the answer is not delayed by it and
     * the two can leave as one GSO run; A completes both its SEND and its RECV.
     */
    @Test
    void theAnswerLeavesBeforeTheAckOfTheRequestItAnswers() {
        QueuePair qa = a.newQp();
        QueuePair qb = b.newQp();
        connect(QpConnector.rc().accessFlags(ACCESS), qa, a.device, qb, b.device);
        qa.postRecv(new ReceiveWorkRequest().wrId(20).sgList(ScatterGatherEntry.of(a.mr, 4096, 64)));
        qb.postRecv(new ReceiveWorkRequest().wrId(10).sgList(ScatterGatherEntry.of(b.mr, 0, 64)));
        b.device.progress(); // B's application polls from now on
        awaitFallbackSteppedBack();
        qa.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(a.mr, 0, 64)));

        assertEquals(WcStatus.SUCCESS, spin(b.cqs.get(0)).status());
        qb.postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(b.mr, 64, 64)));
        b.device.progress();

        assertEquals(List.of(Opcode.RC_SEND_ONLY, Opcode.RC_ACKNOWLEDGE), pipe.b.sentOpcodes,
            "the answer first, then the ACK B owed since before it was posted");
        WorkCompletion first = spin(a.cqs.get(0));
        WorkCompletion second = spin(a.cqs.get(0));
        assertEquals(Set.of(1L, 20L), Set.of(first.wrId(), second.wrId()), first + " " + second);
        assertEquals(WcStatus.SUCCESS, first.status());
        assertEquals(WcStatus.SUCCESS, second.status());
    }

    @Test
    void aDeviceNobodyPollsIsServedByItsFallbackThread() {
        QueuePair qa = a.newQp();
        QueuePair qb = b.newQp();
        connect(QpConnector.rc().accessFlags(ACCESS), qa, a.device, qb, b.device);
        byte[] data = new byte[10_000];
        new Random(2).nextBytes(data);
        a.mr.buffer().put(0, data);
        // B is the passive side of a WRITE and a READ: its application never polls or progresses it.
        qa.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
            .remoteAddress(b.mr.address() + 64).rkey(b.mr.rkey()).sgList(ScatterGatherEntry.of(a.mr, 0, data.length)));
        assertEquals(WcStatus.SUCCESS, spin(a.cqs.get(0)).status());
        qa.postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.RDMA_READ).sendFlags(SendFlags.SIGNALED)
            .remoteAddress(b.mr.address() + 64).rkey(b.mr.rkey())
            .sgList(ScatterGatherEntry.of(a.mr, 1 << 19, data.length)));
        WorkCompletion read = spin(a.cqs.get(0));
        assertEquals(WcStatus.SUCCESS, read.status(), read.toString());
        byte[] got = new byte[data.length];
        a.mr.buffer().get(1 << 19, got);
        assertArrayEquals(data, got);
        assertTrue(pipe.b.lastReader.getName().endsWith("-fallback"), "B's packets were read by " + pipe.b.lastReader);
    }

    @Test
    void aPeerGoneAwayEndsInRetryExceededOnThePollingThread() {
        QueuePair qa = a.newQp();
        QueuePair qb = b.newQp();
        // ACK timeout 4.096 us * 2^8 ~ 1 ms, 2 retries: the timers must run while A's application busy-polls.
        connect(QpConnector.rc().accessFlags(ACCESS).timeout(8).retryCount(2), qa, a.device, qb, b.device);
        pipe.a.drop = true;
        qa.postSend(new SendWorkRequest().wrId(5).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
            .remoteAddress(b.mr.address()).rkey(b.mr.rkey()).sgList(ScatterGatherEntry.of(a.mr, 0, 64)));
        WorkCompletion wc = spin(a.cqs.get(0));
        assertEquals(WcStatus.RETRY_EXC_ERR, wc.status(), wc.toString());
        assertEquals(5, wc.wrId());
    }

    @Test
    void severalThreadsPollingSeveralCqsOfOneDeviceEachGetTheirOwn() throws Exception {
        int threads = 3;
        int messages = 2_000;
        List<QueuePair> as = new ArrayList<>();
        List<QueuePair> bs = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            QueuePair qa = a.newQp();
            QueuePair qb = b.newQp();
            connect(QpConnector.rc().accessFlags(ACCESS), qa, a.device, qb, b.device);
            as.add(qa);
            bs.add(qb);
        }
        // Each of A's threads sends on its own QP and polls its own CQ; B's application never polls,
        // so its fallback answers. Each SEND carries its index; B's receives must see them in order.
        List<Thread> workers = new ArrayList<>();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            for (int m = 0; m < 32; m++) {
                bs.get(id).postRecv(new ReceiveWorkRequest().wrId(m).sgList(ScatterGatherEntry.of(b.mr, 4096 * id + 8 * m, 8)));
            }
            workers.add(new Thread(() -> {
                try {
                    QueuePair qa = as.get(id);
                    CompletionQueue cq = a.cqs.get(id);
                    for (int m = 0; m < messages; m++) {
                        a.mr.buffer().putInt(64 * id, m);
                        qa.postSend(new SendWorkRequest().wrId(m).opcode(WrOpcode.SEND)
                            .sendFlags(SendFlags.SIGNALED | SendFlags.INLINE).sgList(ScatterGatherEntry.of(a.mr, 64 * id, 4)));
                        WorkCompletion wc = spin(cq);
                        assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
                        assertEquals(m, wc.wrId());
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "poller-" + t));
        }
        // B's receive side: one thread re-posts receives and checks the order per QP.
        Thread receiver = new Thread(() -> {
            try {
                WorkCompletion wc = new WorkCompletion();
                int[] next = new int[threads];
                int total = 0;
                long end = System.nanoTime() + DEADLINE_NS;
                while (total < threads * messages) {
                    for (int id = 0; id < threads; id++) {
                        while (b.cqs.get(id).pollBlocking(wc, 1, TimeUnit.MILLISECONDS)) {
                            assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
                            int slot = 4096 * id + 8 * (int) wc.wrId();
                            assertEquals(next[id]++, b.mr.buffer().getInt(slot), "QP " + id);
                            total++;
                            bs.get(id).postRecv(new ReceiveWorkRequest().wrId(wc.wrId())
                                .sgList(ScatterGatherEntry.of(b.mr, slot, 8)));
                        }
                    }
                    if (System.nanoTime() - end > 0) {
                        fail("received " + total + " of " + threads * messages);
                    }
                }
            } catch (Throwable e) {
                failures.add(e);
            }
        }, "receiver");
        receiver.start();
        workers.forEach(Thread::start);
        for (Thread w : workers) {
            w.join();
        }
        receiver.join();
        if (!failures.isEmpty()) {
            throw new AssertionError(failures.get(0));
        }
    }

    @Test
    void progressDrivesALoopThatWaitsOnMemory() {
        QueuePair qa = a.newQp();
        QueuePair qb = b.newQp();
        connect(QpConnector.rc().accessFlags(ACCESS), qa, a.device, qb, b.device);
        // A's thread posts a WRITE and spins on B's memory as write_lat does, calling progress on
        // both devices: the WRITE arrives through this thread's own progress calls.
        a.mr.buffer().put(0, (byte) 0x5A);
        qa.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_WRITE)
            .remoteAddress(b.mr.address() + 100).rkey(b.mr.rkey()).sgList(ScatterGatherEntry.of(a.mr, 0, 1)));
        long end = System.nanoTime() + DEADLINE_NS;
        while (b.mr.buffer().get(100) != 0x5A) {
            a.device.progress();
            b.device.progress();
            if (System.nanoTime() - end > 0) {
                fail("the WRITE never landed");
            }
        }
        assertNotSame(null, pipe.b.lastReader);
    }
}
