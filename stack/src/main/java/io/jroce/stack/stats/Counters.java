package io.jroce.stack.stats;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One device's counters: written by its I/O thread, readable from any thread. A {@link DropListener}
 * hears of every drop counted ({@link Counter#isDrop}), on the thread that counted it.
 */
public final class Counters {
    private static final Counter[] ALL = Counter.values();
    private final AtomicLongArray values = new AtomicLongArray(ALL.length);
    private volatile DropListener dropListener;

    /**
     * Adds one to a counter.
     *
     * @param c the counter
     */
    public void increment(Counter c) {
        values.incrementAndGet(c.ordinal());
        if (c.isDrop()) {
            dropped(c, 1);
        }
    }

    /**
     * Adds to a counter.
     *
     * @param c the counter
     * @param delta how much to add
     */
    public void add(Counter c, long delta) {
        values.addAndGet(c.ordinal(), delta);
        if (c.isDrop() && delta > 0) {
            dropped(c, delta);
        }
    }

    /**
     * Who hears of drops.
     *
     * @param listener the listener, or null for nobody
     */
    public void dropListener(DropListener listener) {
        this.dropListener = listener;
    }

    private void dropped(Counter reason, long count) {
        DropListener l = dropListener;
        if (l != null) {
            l.dropped(reason, count);
        }
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
