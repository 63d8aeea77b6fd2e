package io.jroce.stack.stats;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/** One device's counters: written by its I/O thread, readable from any thread. */
public final class Counters {
    private static final Counter[] ALL = Counter.values();
    private final AtomicLongArray values = new AtomicLongArray(ALL.length);

    /**
     * Adds one to a counter.
     *
     * @param c the counter
     */
    public void increment(Counter c) {
        values.incrementAndGet(c.ordinal());
    }

    /**
     * Adds to a counter.
     *
     * @param c the counter
     * @param delta how much to add
     */
    public void add(Counter c, long delta) {
        values.addAndGet(c.ordinal(), delta);
    }

    /**
     * A counter's value.
     *
     * @param c the counter
     * @return its value
     */
    public long get(Counter c) {
        return values.get(c.ordinal());
    }

    /**
     * Every counter by name, in declaration order.
     *
     * @return every counter by its name
     */
    public Map<String, Long> snapshot() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (Counter c : ALL) {
            m.put(c.counterName(), values.get(c.ordinal()));
        }
        return m;
    }
}
