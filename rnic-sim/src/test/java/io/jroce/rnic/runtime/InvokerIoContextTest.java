package io.jroce.rnic.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link InvokerIoContext} and its {@link ProgressFallback} alone, on a {@link MemoryPipe}: what a
 * task or a handler that throws leaves behind, and closing from the owner. Latches order the
 * threads; the deadlines only bound a failure.
 */
class InvokerIoContextTest {
    private static final long TICK_NS = TimeUnit.MICROSECONDS.toNanos(500);
    private static final long DEADLINE_S = 30;
    private static final byte[] PACKET = new byte[16];

    private final MemoryPipe pipe = new MemoryPipe("10.0.0.1", "10.0.0.2");
    private final InvokerIoContext io = new InvokerIoContext(TICK_NS, pipe.a, TimeUnit.MILLISECONDS.toNanos(1), 0);

    /** Closes on another thread, so that a device left locked fails the test instead of hanging it. */
    @AfterEach
    void close() throws InterruptedException {
        Thread closer = new Thread(io::close, "closer");
        closer.setDaemon(true);
        closer.start();
        closer.join(TimeUnit.SECONDS.toMillis(DEADLINE_S));
        assertFalse(closer.isAlive(), "close() waits for a device that nobody will let go of");
    }

    /** The peer sends one datagram to the context's end of the pipe. */
    private void arrive() {
        pipe.b.send(new UnsafeBuffer(PACKET), 0, PACKET.length, pipe.b.address, pipe.a.address, 4791);
    }

    private static void await(CountDownLatch latch, String what) {
        try {
            assertTrue(latch.await(DEADLINE_S, TimeUnit.SECONDS), what);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** A post on a context whose fallback window outlasts the test: "polling" does not depend on timing. */
    private static InvokerIoContext longWindow(MemoryPipe p) {
        return new InvokerIoContext(TICK_NS, p.a, TimeUnit.HOURS.toNanos(1), 0);
    }

    /** A pipe whose end A holds what it sends until a flush, as a socket's send queue does. */
    private static MemoryPipe heldPipe() {
        MemoryPipe p = new MemoryPipe("10.0.0.1", "10.0.0.2");
        p.a.holdUntilFlush = true;
        p.a.start((packet, offset, length, src, srcPort, dst) -> { });
        return p;
    }

    /** A post: a task that sends one datagram to the pipe's other end. */
    private static Runnable post(MemoryPipe p) {
        return () -> p.a.send(new UnsafeBuffer(PACKET), 0, PACKET.length, p.a.address, p.b.address, 4791);
    }

    /**
     * While an application thread polls the device, what a post sends waits for that thread's next
     * call, which flushes first: a burst of posts leaves in one flush (one sendmmsg on UDP).
     */
    @Test
    void postsWhileAThreadPollsLeaveTogetherWithItsNextCall() {
        MemoryPipe p = heldPipe();
        InvokerIoContext ctx = longWindow(p);
        try {
            ctx.progress(); // a poll: this thread progresses the device
            for (int i = 0; i < 3; i++) {
                ctx.execute(post(p));
            }
            assertEquals(0, p.b.inboundCount(), "the posts wait for the poller's next call");
            ctx.progress();
            assertEquals(3, p.b.inboundCount(), "its next call sent them");
            assertEquals(1, p.a.flushes.get(), "in one flush");
        } finally {
            ctx.close();
        }
    }

    /** With no thread polling (none has, or it handed the device over to block), a post leaves at once. */
    @Test
    void aPostWithNoThreadPollingLeavesAtOnce() {
        MemoryPipe p = heldPipe();
        InvokerIoContext ctx = longWindow(p);
        try {
            ctx.execute(post(p));
            assertEquals(1, p.b.inboundCount(), "nobody polls: sent before execute returned");
            ctx.progress();
            ctx.handOver(); // the poller is about to block
            ctx.execute(post(p));
            assertEquals(2, p.b.inboundCount(), "handed over: sent before execute returned");
        } finally {
            ctx.close();
        }
    }

    /**
     * A turn reads the clock once: what a post's task and each datagram of a round do sees the
     * instant their turn began. Outside a turn, and on another thread during one, the clock is read
     * afresh: a stale instant would put the timers armed there in the past.
     */
    @Test
    void aTurnSeesTheInstantItBeganAndNothingElseSeesAStaleOne() throws Exception {
        long gap = TimeUnit.MILLISECONDS.toNanos(2);
        long before = System.nanoTime();
        long[] inPost = new long[2];
        AtomicLong otherThread = new AtomicLong();
        io.execute(() -> {
            inPost[0] = io.nowNs();
            MemoryPipe.spin(gap);
            inPost[1] = io.nowNs();
            Thread other = new Thread(() -> otherThread.set(io.nowNs()), "other");
            other.start();
            try {
                other.join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        long afterPost = io.nowNs();
        assertTrue(inPost[0] - before >= 0, "the turn began after the call");
        assertEquals(inPost[0], inPost[1], "one instant for the whole turn");
        assertTrue(otherThread.get() - inPost[0] >= gap, "another thread reads the clock during the turn");
        assertTrue(afterPost - inPost[0] >= gap, "after the turn the clock is read afresh");

        long[] perDatagram = new long[2];
        AtomicInteger datagrams = new AtomicInteger();
        pipe.a.start((packet, offset, length, src, srcPort, dst) -> {
            perDatagram[datagrams.getAndIncrement()] = io.nowNs();
            MemoryPipe.spin(gap);
        });
        arrive();
        arrive();
        assertTrue(io.progress() >= 2, "the round read both datagrams");
        assertEquals(2, datagrams.get());
        assertEquals(perDatagram[0], perDatagram[1], "the round's datagrams share its instant");
        assertTrue(perDatagram[0] - afterPost >= 0, "a new turn, a new instant");
        assertTrue(io.nowNs() - perDatagram[0] >= 2 * gap, "after the round the clock is read afresh");
    }

    /**
     * A batch of datagrams reads its own instant: the timers its packets arm count from when they
     * were read, not from the start of a turn whose queued tasks (an application's listener, say)
     * ran long first.
     */
    @Test
    void aBatchAfterALongTaskReadsItsOwnInstant() {
        long gap = TimeUnit.MILLISECONDS.toNanos(2);
        long[] inTask = new long[1];
        long[] inBatch = new long[1];
        pipe.a.start((packet, offset, length, src, srcPort, dst) -> inBatch[0] = io.nowNs());
        arrive();
        // The inner task is queued by the outer one (the device is held) and runs in the round that
        // the outer turn's release runs, before that round reads the socket.
        io.execute(() -> io.execute(() -> {
            inTask[0] = io.nowNs();
            MemoryPipe.spin(gap);
        }));
        assertTrue(inTask[0] != 0 && inBatch[0] != 0, "the task ran and the datagram was read");
        assertTrue(inBatch[0] - inTask[0] >= gap, "the batch after a 2 ms task reads the clock again");
    }

    /**
     * An application thread's round flushes what its thread posted before it reads the sockets:
     * the datagrams it then reads take an instant from after that flush (a send that took 2 ms
     * here), not from before it.
     */
    @Test
    void aBatchAfterALongFlushTakesAnInstantFromAfterIt() {
        long gap = TimeUnit.MILLISECONDS.toNanos(2);
        MemoryPipe p = heldPipe();
        p.a.flushSpinNs = gap;
        long[] inBatch = new long[1];
        InvokerIoContext ctx = longWindow(p);
        p.a.start((packet, offset, length, src, srcPort, dst) -> inBatch[0] = ctx.nowNs());
        try {
            ctx.progress(); // a poll: this thread progresses the device, its posts wait for its next call
            ctx.execute(post(p));
            p.b.send(new UnsafeBuffer(PACKET), 0, PACKET.length, p.b.address, p.a.address, 4791);
            assertTrue(ctx.progress() >= 1, "the next call read the datagram");
            assertEquals(1, p.a.flushes.get(), "after flushing the post");
            assertTrue(inBatch[0] - p.a.lastFlushEndNs >= 0, "the datagram's instant is from after the 2 ms flush");
        } finally {
            ctx.close();
        }
    }

    /**
     * A queued task that throws an Error (an engine's assert, with -ea) is logged as on the event
     * loop, and the thread that ran it lets go of the device: another thread's task then runs at
     * once on that thread, as on a free device.
     */
    @Test
    void aTaskThatThrowsAnErrorLeavesTheDeviceFree() throws Exception {
        pipe.a.start((packet, offset, length, src, srcPort, dst) -> { });
        CountDownLatch owning = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        Thread owner = new Thread(() -> io.execute(() -> {
            owning.countDown();
            await(letGo, "let go");
        }), "owner");
        owner.start();
        await(owning, "the owner took the device");
        io.execute(() -> {
            throw new AssertionError("a bug in a task");
        }); // the device is taken: queued, run by the owner before it lets go
        letGo.countDown();
        owner.join();

        AtomicReference<Thread> ranOn = new AtomicReference<>();
        io.execute(() -> ranOn.set(Thread.currentThread()));
        assertEquals(Thread.currentThread(), ranOn.get(), "the device is free: the task ran at once on this thread");
        assertEquals(42, io.call(() -> 42));
    }

    /**
     * The fallback thread keeps serving the device after a round failed with an Error (from a task
     * or from the transport's handler): the next datagram is still read while nobody polls.
     */
    @Test
    void theFallbackThreadSurvivesAnError() {
        CountDownLatch failed = new CountDownLatch(2);
        CountDownLatch served = new CountDownLatch(1);
        AtomicReference<Thread> server = new AtomicReference<>();
        AtomicBoolean first = new AtomicBoolean(true);
        pipe.a.start((packet, offset, length, src, srcPort, dst) -> {
            if (first.getAndSet(false)) {
                io.execute(() -> { // queued: run by this round, on the fallback thread
                    failed.countDown();
                    throw new AssertionError("a bug in a task");
                });
                failed.countDown();
                throw new AssertionError("a bug in the handler");
            }
            server.set(Thread.currentThread());
            served.countDown();
        });
        io.start(() -> { }, "ctx");
        arrive();
        await(failed, "the fallback thread read the first datagram");
        arrive();
        await(served, "the fallback thread read the second datagram");
        assertTrue(server.get().getName().endsWith("-fallback"), server.get().getName());
        assertNotSame(Thread.currentThread(), server.get());
    }
    /**
     * With a spin time the fallback thread goes on polling after a round that found nothing:
     * datagrams that come one after another are all served without the thread sleeping in
     * between. Without one (the context of the other tests) it sleeps once a datagram is served.
     */
    @Test
    void aSpinningFallbackServesDatagramsInARowWithoutSleeping() throws Exception {
        MemoryPipe other = new MemoryPipe("10.0.0.3", "10.0.0.4");
        InvokerIoContext spinning = new InvokerIoContext(TICK_NS, other.a, TimeUnit.MILLISECONDS.toNanos(1),
            TimeUnit.SECONDS.toNanos(DEADLINE_S));
        Semaphore served = new Semaphore(0);
        other.a.start((packet, offset, length, src, srcPort, dst) -> served.release());
        spinning.start(() -> { }, "spinning");
        try {
            other.b.send(new UnsafeBuffer(PACKET), 0, PACKET.length, other.b.address, other.a.address, 4791);
            assertTrue(served.tryAcquire(DEADLINE_S, TimeUnit.SECONDS), "the first datagram was served");
            int slept = other.a.awaits.get();
            for (int i = 0; i < 5; i++) {
                other.b.send(new UnsafeBuffer(PACKET), 0, PACKET.length, other.b.address, other.a.address, 4791);
                assertTrue(served.tryAcquire(DEADLINE_S, TimeUnit.SECONDS), "datagram " + (i + 2) + " was served");
            }
            assertEquals(slept, other.a.awaits.get(), "the fallback thread slept between datagrams while it spun");
        } finally {
            spinning.close();
        }

        Semaphore servedHere = new Semaphore(0);
        pipe.a.start((packet, offset, length, src, srcPort, dst) -> servedHere.release());
        io.start(() -> { }, "ctx");
        arrive();
        assertTrue(servedHere.tryAcquire(DEADLINE_S, TimeUnit.SECONDS), "served without a spin");
        int before = pipe.a.awaits.get();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_S);
        while (pipe.a.awaits.get() == before && System.nanoTime() - deadline < 0) {
            Thread.sleep(1); // a condition wait: the fallback thread going to sleep
        }
        assertTrue(pipe.a.awaits.get() > before, "without a spin the fallback thread sleeps once it has served");
    }

    /**
     * A task queued by a thread that found the device taken runs before the owner lets go: after
     * two threads' execute calls both returned, both tasks ran, every time. Many rounds of the two
     * racing, to meet the moment when the owner checks the queue just before the task lands in it.
     */
    @Test
    void aTaskQueuedWhileAnotherThreadOwnsTheDeviceIsNeverLeftBehind() throws Exception {
        pipe.a.start((packet, offset, length, src, srcPort, dst) -> { });
        int rounds = 20_000;
        java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(2);
        java.util.concurrent.atomic.AtomicLong ran = new java.util.concurrent.atomic.AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread other = new Thread(() -> {
            try {
                for (int i = 0; i < rounds; i++) {
                    start.await();
                    io.execute(ran::incrementAndGet);
                    start.await();
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "other");
        other.setDaemon(true);
        other.start();
        for (int i = 0; i < rounds; i++) {
            start.await(DEADLINE_S, TimeUnit.SECONDS);
            io.execute(ran::incrementAndGet);
            start.await(DEADLINE_S, TimeUnit.SECONDS);
            assertEquals(2L * (i + 1), ran.get(), "round " + i + ": a queued task was left in the queue");
        }
        other.join();
        assertEquals(null, failure.get());
    }
    /**
     * Closing from the owner (a device closed from an async-event listener, which runs as the
     * owner) does not wait for the fallback thread while that thread waits for the device: the
     * owner would wait for a thread that waits for it. The fallback thread ends once it has the
     * device and sees it closed.
     */
    @Test
    void closingAsTheOwnerDoesNotWaitForTheFallbackThatWaitsForTheDevice() throws Exception {
        pipe.a.start((packet, offset, length, src, srcPort, dst) -> { });
        io.start(() -> { }, "owner-close");
        Thread fallback = Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().equals("jroce-owner-close-fallback")).findFirst().orElseThrow();
        // The fallback thread counts itself among the threads waiting for the device before it tries the lock.
        java.lang.reflect.Field f = InvokerIoContext.class.getDeclaredField("pendingCalls");
        f.setAccessible(true);
        java.util.concurrent.atomic.AtomicInteger waiting = (java.util.concurrent.atomic.AtomicInteger) f.get(io);
        Thread self = Thread.currentThread();
        AtomicBoolean closeReturned = new AtomicBoolean();
        AtomicBoolean waitedForFallback = new AtomicBoolean();
        Thread watcher = new Thread(() -> {
            while (!closeReturned.get()) {
                // A join made by the fallback's stop: the test thread's own watcher.join() below,
                // which may already run when this loop looks a last time, is not one.
                boolean joining = false;
                for (StackTraceElement e : self.getStackTrace()) {
                    if (e.getClassName().equals(Thread.class.getName()) && e.getMethodName().equals("join")) {
                        joining = true;
                    } else if (joining && e.getClassName().equals(ProgressFallback.class.getName())) {
                        waitedForFallback.set(true);
                    }
                }
                Thread.onSpinWait();
            }
        }, "watcher");
        io.call(() -> {
            while (waiting.get() == 0) { // nobody polls: the fallback comes for a round within a tick
                Thread.onSpinWait();
            }
            watcher.start();
            io.close();
            closeReturned.set(true);
            return null;
        });
        watcher.join();
        assertFalse(waitedForFallback.get(), "close() as the owner waited for the fallback thread, which waits for it");
        fallback.join(TimeUnit.SECONDS.toMillis(DEADLINE_S));
        assertFalse(fallback.isAlive(), "the fallback thread ended once it had the closed device");
    }
}
