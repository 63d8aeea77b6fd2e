package io.jroce.stack.fault;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The last {@code capacity} packet events of a transport, oldest first, and a count of every fate
 * since the start. A failing seeded test prints it with its seed: the tail of the trace usually
 * shows the packet whose loss, copy or delay the protocol mishandled.
 */
public final class PacketTrace {
    private final TraceEvent[] ring;
    private final Map<Fate, Long> totals = new EnumMap<>(Fate.class);
    private long recorded;

    /**
     * An empty trace.
     *
     * @param capacity events kept; 0 keeps none but still counts fates
     */
    public PacketTrace(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative, got " + capacity);
        }
        ring = new TraceEvent[capacity];
        for (Fate f : Fate.values()) {
            totals.put(f, 0L);
        }
    }

    /**
     * Records one packet's fate, forgetting the oldest event when the ring is full.
     *
     * @param e the event
     */
    public void record(TraceEvent e) {
        totals.merge(e.fate(), 1L, Long::sum);
        if (ring.length > 0) {
            ring[(int) (recorded % ring.length)] = e;
        }
        recorded++;
    }

    /**
     * Events recorded since the start, including those the ring no longer holds.
     *
     * @return the count
     */
    public long recorded() {
        return recorded;
    }

    /**
     * Events with {@code fate} since the start.
     *
     * @param fate the fate
     * @return the count
     */
    public long count(Fate fate) {
        return totals.get(fate);
    }

    /**
     * The events the ring holds, oldest first.
     *
     * @return a new list of them
     */
    public List<TraceEvent> events() {
        return last(ring.length);
    }

    /**
     * The newest {@code n} events (fewer if fewer are held), oldest first.
     *
     * @param n how many
     * @return a new list of them
     */
    public List<TraceEvent> last(int n) {
        int held = (int) Math.min(recorded, ring.length);
        int k = Math.min(n, held);
        List<TraceEvent> out = new ArrayList<>(k);
        for (long i = recorded - k; i < recorded; i++) {
            out.add(ring[(int) (i % ring.length)]);
        }
        return out;
    }

    /**
     * Totals by fate, then the newest {@code n} events, one per line.
     *
     * @param n how many events
     * @return the text
     */
    public String dump(int n) {
        StringBuilder sb = new StringBuilder();
        sb.append("packet trace: ").append(recorded).append(" events ").append(totals);
        List<TraceEvent> tail = last(n);
        if (tail.size() < recorded) {
            sb.append(", last ").append(tail.size());
        }
        sb.append(':');
        for (TraceEvent e : tail) {
            sb.append("\n  ").append(e.format());
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return dump(ring.length);
    }
}
