package io.jroce.benchmarks;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.jroce.rnic.cq.CompletionRing;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.spi.CompletionWriter;

/**
 * A completion queue's ring under load: one producer (the I/O thread's side: claim, fill, publish)
 * and one or two pollers ({@code poll(array)} of 16), with the producer's and the pollers' indexes
 * side by side ({@code unpadded}, {@link CompletionRing}, what the CQ uses) or on separate cache
 * lines ({@code padded}, {@link PaddedCompletionRing}, the same algorithm). The score that matters
 * is the {@code taken} secondary score: completions moved from producer to pollers per second.
 * The primary score counts operations of both sides, including a producer's claim on a full ring
 * and a poller's poll of an empty one (each of which yields the CPU), and means little alone.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CompletionRingBenchmark {
    private static final CompletionWriter WC = CompletionWriter.get();
    static final int ENTRIES = 1024;
    static final int BATCH = 16;

    /** The ring both sides share (one per group). */
    @State(Scope.Group)
    public static class Padded {
        final PaddedCompletionRing ring = new PaddedCompletionRing(ENTRIES);
    }

    /** The CQ's ring, indexes side by side. */
    @State(Scope.Group)
    public static class Unpadded {
        final CompletionRing ring = new CompletionRing(ENTRIES);
    }

    /** A poller's own entries. */
    @State(Scope.Thread)
    public static class Entries {
        final WorkCompletion[] wcs = new WorkCompletion[BATCH];

        @Setup
        public void setUp() {
            for (int i = 0; i < BATCH; i++) {
                wcs[i] = new WorkCompletion();
            }
        }
    }

    /** Completions taken, reported per second by JMH. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Taken {
        public long taken;

        @Setup(Level.Iteration)
        public void reset() {
            taken = 0;
        }
    }

    /** The producer's sequence number. */
    @State(Scope.Thread)
    public static class Sequence {
        long next;
    }

    static boolean produce(WorkCompletion wc, Sequence seq) {
        if (wc == null) {
            return false;
        }
        long id = seq.next++;
        WC.set(wc, id, WcStatus.SUCCESS, WcOpcode.RECV, (int) id, false, 0, 0x11, 0, 0);
        return true;
    }

    @Benchmark
    @Group("padded1")
    @GroupThreads(1)
    public boolean paddedProducer1(Padded s, Sequence seq) {
        return produceTo(s.ring, seq);
    }

    @Benchmark
    @Group("padded1")
    @GroupThreads(1)
    public int paddedPoller1(Padded s, Entries e, Taken t) {
        return take(s.ring.poll(e.wcs), t);
    }

    @Benchmark
    @Group("unpadded1")
    @GroupThreads(1)
    public boolean unpaddedProducer1(Unpadded s, Sequence seq) {
        return produceTo(s.ring, seq);
    }

    @Benchmark
    @Group("unpadded1")
    @GroupThreads(1)
    public int unpaddedPoller1(Unpadded s, Entries e, Taken t) {
        return take(s.ring.poll(e.wcs), t);
    }

    @Benchmark
    @Group("padded2")
    @GroupThreads(1)
    public boolean paddedProducer2(Padded s, Sequence seq) {
        return produceTo(s.ring, seq);
    }

    @Benchmark
    @Group("padded2")
    @GroupThreads(2)
    public int paddedPoller2(Padded s, Entries e, Taken t) {
        return take(s.ring.poll(e.wcs), t);
    }

    @Benchmark
    @Group("unpadded2")
    @GroupThreads(1)
    public boolean unpaddedProducer2(Unpadded s, Sequence seq) {
        return produceTo(s.ring, seq);
    }

    @Benchmark
    @Group("unpadded2")
    @GroupThreads(2)
    public int unpaddedPoller2(Unpadded s, Entries e, Taken t) {
        return take(s.ring.poll(e.wcs), t);
    }

    static boolean produceTo(CompletionRing ring, Sequence seq) {
        if (produce(ring.claim(), seq)) {
            ring.publish();
            return true;
        }
        return idle();
    }

    static boolean produceTo(PaddedCompletionRing ring, Sequence seq) {
        if (produce(ring.claim(), seq)) {
            ring.publish();
            return true;
        }
        return idle();
    }

    static int take(int n, Taken t) {
        if (n == 0) {
            idle();
        }
        t.taken += n;
        return n;
    }

    /**
     * A full ring (producer) or an empty one (poller): give the core away. On a machine with fewer
     * free cores than threads, a side that spins through its time slice would otherwise measure
     * the scheduler (the producer fills the ring, then spins while the poller is off the CPU).
     */
    static boolean idle() {
        Thread.yield();
        return false;
    }
}
