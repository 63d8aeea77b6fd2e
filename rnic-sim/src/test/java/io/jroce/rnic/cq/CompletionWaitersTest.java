package io.jroce.rnic.cq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.spi.CompletionWriter;

/** Threads blocked on a ring: woken by a publish or by close, and never left asleep. */
class CompletionWaitersTest {
    private static final CompletionWriter WC = CompletionWriter.get();
    private static final long LONG_NS = TimeUnit.SECONDS.toNanos(60);

    private final CompletionRing ring = new CompletionRing(4);
    private final CompletionWaiters waiters = new CompletionWaiters();

    private void publish(long wrId) {
        WC.start(ring.claim(), wrId, WcOpcode.SEND, 1);
        ring.publish();
        waiters.published();
    }

    @Test
    void anEntryAlreadyThereIsTakenWithoutWaiting() throws Exception {
        publish(5);
        WorkCompletion wc = new WorkCompletion();
        assertTrue(waiters.take(ring, wc, 0));
        assertEquals(5, wc.wrId());
    }

    @Test
    void nothingWithinTheTimeoutIsFalse() throws Exception {
        assertFalse(waiters.take(ring, new WorkCompletion(), 0));
        assertFalse(waiters.take(ring, new WorkCompletion(), 1_000));
    }

    /** Whether the waiter is asleep or not yet when the entry is published, it gets it. */
    @Test
    void aPublishWakesTheWaiter() throws Exception {
        AtomicLong got = new AtomicLong(-1);
        Thread waiter = new Thread(() -> {
            WorkCompletion wc = new WorkCompletion();
            try {
                if (waiters.take(ring, wc, LONG_NS)) {
                    got.set(wc.wrId());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        waiter.start();
        publish(42);
        waiter.join(TimeUnit.NANOSECONDS.toMillis(LONG_NS));
        assertFalse(waiter.isAlive());
        assertEquals(42, got.get());
    }

    @Test
    void closeReleasesTheWaitersWithFalse() throws Exception {
        AtomicBoolean result = new AtomicBoolean(true);
        Thread waiter = new Thread(() -> {
            try {
                result.set(waiters.take(ring, new WorkCompletion(), LONG_NS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        waiter.start();
        waiters.close();
        waiter.join(TimeUnit.NANOSECONDS.toMillis(LONG_NS));
        assertFalse(waiter.isAlive());
        assertFalse(result.get());
        assertFalse(waiters.take(ring, new WorkCompletion(), LONG_NS), "later waits return at once");
    }

    /** More waiters than parking slots: those on the condition are woken too, each gets one entry. */
    @Test
    void moreWaitersThanSlotsEachGetAnEntry() throws Exception {
        int n = CompletionWaiters.PARKING_SLOTS + 3;
        CompletionRing big = new CompletionRing(n);
        List<Thread> threads = new ArrayList<>();
        Set<Long> got = ConcurrentHashMap.newKeySet();
        CountDownLatch started = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            Thread t = new Thread(() -> {
                WorkCompletion wc = new WorkCompletion();
                started.countDown();
                try {
                    if (waiters.take(big, wc, LONG_NS)) {
                        got.add(wc.wrId());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            threads.add(t);
            t.start();
        }
        started.await();
        for (int i = 0; i < n; i++) {
            WC.start(big.claim(), i, WcOpcode.SEND, 1);
            big.publish();
            waiters.published();
        }
        for (Thread t : threads) {
            t.join(TimeUnit.NANOSECONDS.toMillis(LONG_NS));
            assertFalse(t.isAlive());
        }
        assertEquals(n, got.size());
    }

    @Test
    void anInterruptedWaiterThrows() {
        Thread.currentThread().interrupt();
        try {
            assertThrows(InterruptedException.class,
                () -> waiters.take(ring, new WorkCompletion(), LONG_NS));
        } finally {
            Thread.interrupted();
        }
    }
}
