package io.jroce.benchmarks;

/**
 * Puts the producer's and the pollers' indexes of a {@link PaddedCompletionRing} on cache lines of
 * their own, as Agrona's {@code AbstractConcurrentArrayQueue} does: HotSpot lays out a
 * superclass's fields before its subclass's, so 128 bytes of padding between the classes of this
 * chain (two lines, against the adjacent-line prefetch) keep a poller's CAS from invalidating the
 * line the producer writes, and the reverse.
 */
final class RingPadding {
    private RingPadding() {
    }

    /** Keeps the producer's index off the object header and whatever precedes the ring. */
    abstract static class BeforeProducer {
        long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15, p16;
    }

    /** The producer's line: its index, and its cached copy of the pollers' index. */
    abstract static class Producer extends BeforeProducer {
        /** Next slot to fill; written by the producer only. */
        volatile long producerIndex;
        /**
         * The consumer index as the producer last read it: never ahead of the real one, so the
         * producer reads the pollers' line only when the ring looks full.
         */
        long consumerIndexCache;
    }

    /** Separates the two lines. */
    abstract static class BetweenIndexes extends Producer {
        long p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31, p32, p33, p34, p35, p36;
    }

    /** The pollers' line. */
    abstract static class Consumer extends BetweenIndexes {
        /** Next slot to poll; advanced by pollers with a CAS. */
        volatile long consumerIndex;
    }

    /** Keeps the pollers' index off the ring's own (read-only) fields and whatever follows. */
    abstract static class AfterConsumer extends Consumer {
        long p41, p42, p43, p44, p45, p46, p47, p48, p49, p50, p51, p52, p53, p54, p55, p56;
    }
}
