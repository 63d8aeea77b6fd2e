package io.jroce.benchmarks;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import io.jroce.verbs.WorkCompletion;

/**
 * The alternative that {@link CompletionRingBenchmark} measures: the algorithm of
 * {@link io.jroce.rnic.cq.CompletionRing}, line for line, with its producer and consumer indexes
 * on cache lines of their own ({@link RingPadding}) instead of side by side. Only the benchmark
 * uses it.
 */
final class PaddedCompletionRing extends RingPadding.AfterConsumer {
    private static final VarHandle CONSUMER_INDEX;

    static {
        try {
            CONSUMER_INDEX = MethodHandles.lookup().findVarHandle(RingPadding.Consumer.class, "consumerIndex", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final WorkCompletion[] slots;

    PaddedCompletionRing(int capacity) {
        slots = new WorkCompletion[capacity];
        for (int i = 0; i < capacity; i++) {
            slots[i] = new WorkCompletion();
        }
    }

    WorkCompletion claim() {
        long p = producerIndex;
        if (p - consumerIndexCache >= slots.length) {
            consumerIndexCache = consumerIndex;
            if (p - consumerIndexCache >= slots.length) {
                return null;
            }
        }
        return slots[(int) (p % slots.length)];
    }

    void publish() {
        producerIndex = producerIndex + 1;
    }

    int poll(WorkCompletion[] wcs) {
        while (true) {
            long c = consumerIndex;
            int n = (int) Math.min(wcs.length, producerIndex - c);
            if (n <= 0) {
                return 0;
            }
            for (int i = 0; i < n; i++) {
                wcs[i].copyFrom(slots[(int) ((c + i) % slots.length)]);
            }
            if (CONSUMER_INDEX.compareAndSet(this, c, c + n)) {
                return n;
            }
        }
    }
}
