package io.jroce.rnic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.collections.LongArrayList;
import org.junit.jupiter.api.Test;

import io.jroce.rnic.core.CompletionSink;
import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.spi.CompletionWriter;

/**
 * One CQ, one producer standing in for the I/O thread and pushing millions of completions through
 * claim, fill, publish, and several application threads taking them with {@code poll(array)},
 * {@code poll(one)} and {@code pollBlocking} at once: every completion is taken exactly once,
 * whole (no field of a later completion in the same slot), and each poller sees its completions in
 * the order they were pushed. Nothing here waits on time: the threads stop when all completions
 * are counted, and the joins only bound a hang.
 */
class CompletionQueueStressTest {
    private static final CompletionWriter WC = CompletionWriter.get();
    private static final int COMPLETIONS = 3_000_000;
    private static final int CQ_ENTRIES = 1024;
    private static final long JOIN_MS = 120_000;

    private enum Style { BATCH, ONE, BLOCKING }

    @Test
    void everyCompletionIsTakenOnceInOrderPerPoller() throws Exception {
        try (RdmaDevice device = SoftRnic.builder().name("jroce0").address("10.0.0.1").openOn(new SimulatedFabric());
             CompletionQueue cq = device.createCq(CQ_ENTRIES)) {
            CompletionSink sink = (CompletionSink) cq;
            AtomicLong taken = new AtomicLong();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            List<Style> styles = List.of(Style.BATCH, Style.BATCH, Style.ONE, Style.BLOCKING, Style.BLOCKING);
            List<LongArrayList> seen = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (Style style : styles) {
                LongArrayList mine = new LongArrayList(COMPLETIONS / styles.size(), -1);
                seen.add(mine);
                threads.add(thread("poller-" + style, failures, () -> poll(cq, style, mine, taken)));
            }
            Thread producer = thread("producer", failures, () -> produce(sink));
            long start = System.nanoTime();
            threads.forEach(Thread::start);
            producer.start();
            producer.join(JOIN_MS);
            for (Thread t : threads) {
                t.join(JOIN_MS);
            }
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertFalse(producer.isAlive(), "producer hung");
            threads.forEach(t -> assertFalse(t.isAlive(), t.getName() + " hung"));
            assertNull(failures.peek(), () -> "a thread failed: " + failures.peek());

            boolean[] once = new boolean[COMPLETIONS];
            int total = 0;
            StringBuilder split = new StringBuilder();
            for (int p = 0; p < seen.size(); p++) {
                LongArrayList mine = seen.get(p);
                long last = -1;
                for (int i = 0; i < mine.size(); i++) {
                    long id = mine.getLong(i);
                    assertTrue(id > last, styles.get(p) + " poller saw " + id + " after " + last);
                    assertFalse(once[(int) id], "completion " + id + " taken twice");
                    once[(int) id] = true;
                    last = id;
                }
                total += mine.size();
                split.append(styles.get(p)).append('=').append(mine.size()).append(' ');
            }
            assertEquals(COMPLETIONS, total, "completions taken");
            assertEquals(0, cq.poll(new WorkCompletion[4]));
            System.out.println("CQ stress: " + COMPLETIONS + " completions, " + styles.size() + " pollers ("
                + split.toString().trim() + ") in " + elapsedMs + " ms");
        }
    }

    private static Thread thread(String name, ConcurrentLinkedQueue<Throwable> failures, Runnable body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failures.add(e);
            }
        }, name);
        t.setDaemon(true);
        return t;
    }

    /**
     * The I/O thread's side. A full CQ would lose the completion (and raise CQ_ERR once); this
     * producer claims again instead, so that every completion gets through.
     */
    private static void produce(CompletionSink sink) {
        for (int id = 0; id < COMPLETIONS; id++) {
            WorkCompletion wc;
            while ((wc = sink.claim()) == null) {
                Thread.yield(); // two cores: let a poller make room
            }
            WC.set(wc, id, id % 7 == 0 ? WcStatus.LOC_LEN_ERR : WcStatus.SUCCESS, WcOpcode.RECV, id * 3, true, ~id,
                id & 0xFFFFFF, 0, 0);
            sink.publish(false);
        }
    }

    private static void poll(CompletionQueue cq, Style style, LongArrayList mine, AtomicLong taken) {
        WorkCompletion[] batch = new WorkCompletion[style == Style.BATCH ? 16 : 1];
        for (int i = 0; i < batch.length; i++) {
            batch[i] = new WorkCompletion();
        }
        while (taken.get() < COMPLETIONS) {
            int n;
            try {
                n = switch (style) {
                    case BATCH -> cq.poll(batch);
                    case ONE -> cq.poll(batch[0]) ? 1 : 0;
                    case BLOCKING -> cq.pollBlocking(batch[0], 10, TimeUnit.MILLISECONDS) ? 1 : 0;
                };
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            if (n == 0) {
                Thread.yield();
                continue;
            }
            for (int i = 0; i < n; i++) {
                check(batch[i]);
                if (i > 0) {
                    assertEquals(batch[i - 1].wrId() + 1, batch[i].wrId(), "a batch is one run of the ring");
                }
                mine.addLong(batch[i].wrId());
            }
            taken.addAndGet(n);
        }
    }

    /** Every field comes from the same push: a copy mixed with a later completion would not match. */
    private static void check(WorkCompletion wc) {
        int id = (int) wc.wrId();
        if (wc.byteLen() != id * 3 || wc.immData() != ~id || !wc.withImm() || wc.qpNum() != (id & 0xFFFFFF)
            || wc.status() != (id % 7 == 0 ? WcStatus.LOC_LEN_ERR : WcStatus.SUCCESS)) {
            throw new AssertionError("torn completion: " + wc);
        }
    }
}
