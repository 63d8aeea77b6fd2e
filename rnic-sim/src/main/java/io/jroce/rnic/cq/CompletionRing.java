package io.jroce.rnic.cq;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import io.jroce.verbs.WorkCompletion;

/**
 * The entries of a completion queue: a ring of preallocated {@link WorkCompletion}s with one
 * producer and any number of pollers, and no lock between them.
 *
 * <p>The producer {@link #claim claims} the slot at the producer index, fills it and
 * {@link #publish publishes} it by advancing the producer index (a volatile write). A poller copies
 * slots from the consumer index and then takes them with a CAS on the consumer index; a poller
 * whose CAS fails drops its copy and tries again. The producer reuses a slot only after the
 * consumer index has moved past it, so a copy whose CAS succeeds was never overwritten, and each
 * entry goes to exactly one poller, in order. Nothing allocates.
 *
 * <p>The two indexes share a cache line: padding them apart (as Agrona's
 * {@code AbstractConcurrentArrayQueue} does) showed no gain that the measurement could separate
 * from noise (docs/benchmarks.md, {@code CompletionRingBenchmark}).
 */
public final class CompletionRing {
    private static final VarHandle CONSUMER_INDEX;

    static {
        try {
            CONSUMER_INDEX = MethodHandles.lookup().findVarHandle(CompletionRing.class, "consumerIndex", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final WorkCompletion[] slots;
    /** Next slot to fill; written by the producer only. */
    private volatile long producerIndex;
    /**
     * The consumer index as the producer last read it: never ahead of the real one, so the
     * producer reads the pollers' index only when the ring looks full.
     */
    private long consumerIndexCache;
    /** Next slot to poll; advanced by pollers with a CAS. */
    private volatile long consumerIndex;

    /**
     * A ring of {@code capacity} entries (at least 1).
     *
     * @param capacity how many entries the ring holds
     */
    public CompletionRing(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a completion ring needs at least one entry, got " + capacity);
        }
        slots = new WorkCompletion[capacity];
        for (int i = 0; i < capacity; i++) {
            slots[i] = new WorkCompletion();
        }
    }

    /**
     * The ring's size.
     *
     * @return how many entries the ring holds
     */
    public int capacity() {
        return slots.length;
    }

    /**
     * The slot to fill next, holding whatever it held before, or null when the ring is full.
     * Producer only; the slot is not visible to pollers until {@link #publish()}.
     *
     * @return the slot, or null when full
     */
    public WorkCompletion claim() {
        long p = producerIndex;
        if (p - consumerIndexCache >= slots.length) {
            consumerIndexCache = consumerIndex;
            if (p - consumerIndexCache >= slots.length) {
                return null;
            }
        }
        return slots[(int) (p % slots.length)];
    }

    /** Makes the slot of the last {@link #claim()} visible to pollers. Producer only. */
    public void publish() {
        producerIndex = producerIndex + 1;
    }

    /**
     * The slot of the last {@link #claim()}, not yet published: the producer reads it back before publishing.
     *
     * @return the claimed slot
     */
    public WorkCompletion claimed() {
        return slots[(int) (producerIndex % slots.length)];
    }

    /**
     * Takes up to {@code wcs.length} entries, oldest first, copying them into {@code wcs}; returns
     * how many (0 when the ring is empty). Any thread.
     *
     * @param wcs where the entries are copied, from index 0
     * @return how many entries were taken
     */
    public int poll(WorkCompletion[] wcs) {
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

    /**
     * Takes the oldest entry into {@code wc}; false when the ring is empty. Any thread.
     *
     * @param wc where the entry is copied
     * @return true if an entry was taken
     */
    public boolean take(WorkCompletion wc) {
        while (true) {
            long c = consumerIndex;
            if (c == producerIndex) {
                return false;
            }
            wc.copyFrom(slots[(int) (c % slots.length)]);
            if (CONSUMER_INDEX.compareAndSet(this, c, c + 1)) {
                return true;
            }
        }
    }

    /**
     * Entries published and not yet taken; a snapshot that may be stale at once.
     *
     * @return the number of entries
     */
    public int size() {
        long c = consumerIndex;
        return (int) Math.min(slots.length, producerIndex - c);
    }
}
