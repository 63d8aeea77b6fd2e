package io.jroce.stack.fault;

/**
 * The random behaviour of one direction of one link, drawn per packet from the policy's seeded
 * random source. Immutable: each setter returns a copy, so one value can seed several links.
 *
 * <pre>{@code
 * LinkConditions lossy = LinkConditions.ideal().loss(0.1).duplicate(0.02).reorder(0.05, 50_000).jitter(2_000);
 * }</pre>
 *
 * <p>Delay and jitter keep the link's order (a packet never arrives before one sent earlier on the
 * same link, as on a real wire); only {@link #reorder} lets packets overtake each other. That way
 * a trace line that says REORDERED is the only source of reordering.
 */
public final class LinkConditions {
    private static final LinkConditions IDEAL = new LinkConditions(0, 0, 0, 0, 0, 0, 0);

    private final double loss;
    private final double duplicate;
    private final double reorder;
    private final long reorderMaxNs;
    private final long delayNs;
    private final long jitterNs;
    private final double corrupt;

    private LinkConditions(double loss, double duplicate, double reorder, long reorderMaxNs, long delayNs,
                           long jitterNs, double corrupt) {
        this.loss = loss;
        this.duplicate = duplicate;
        this.reorder = reorder;
        this.reorderMaxNs = reorderMaxNs;
        this.delayNs = delayNs;
        this.jitterNs = jitterNs;
        this.corrupt = corrupt;
    }

    /**
     * No loss, no duplication, no reordering, no extra delay, no corruption.
     *
     * @return the ideal link
     */
    public static LinkConditions ideal() {
        return IDEAL;
    }

    /**
     * Probability that a packet is lost.
     *
     * @param probability 0 to 1
     * @return a copy with it
     */
    public LinkConditions loss(double probability) {
        return new LinkConditions(check(probability), duplicate, reorder, reorderMaxNs, delayNs, jitterNs, corrupt);
    }

    /**
     * Probability that a packet is delivered twice.
     *
     * @param probability 0 to 1
     * @return a copy with it
     */
    public LinkConditions duplicate(double probability) {
        return new LinkConditions(loss, check(probability), reorder, reorderMaxNs, delayNs, jitterNs, corrupt);
    }

    /**
     * Probability that a packet is held back by a uniformly drawn 1..{@code maxHoldNs}
     * nanoseconds, so that what the link carries in that time overtakes it: how far it is reordered.
     *
     * @param probability 0 to 1
     * @param maxHoldNs the longest hold, in nanoseconds
     * @return a copy with it
     */
    public LinkConditions reorder(double probability, long maxHoldNs) {
        if (maxHoldNs < 1 && probability > 0) {
            throw new IllegalArgumentException("a reordered packet must be held back at least 1 ns, got " + maxHoldNs);
        }
        return new LinkConditions(loss, duplicate, check(probability), maxHoldNs, delayNs, jitterNs, corrupt);
    }

    /**
     * Fixed one-way delay added to the transport's own (the fabric's base latency).
     *
     * @param ns the delay in nanoseconds
     * @return a copy with it
     */
    public LinkConditions delay(long ns) {
        return new LinkConditions(loss, duplicate, reorder, reorderMaxNs, nonNegative(ns), jitterNs, corrupt);
    }

    /**
     * Random extra delay, uniform in 0..{@code ns}; the link keeps its order.
     *
     * @param ns the largest extra delay in nanoseconds
     * @return a copy with it
     */
    public LinkConditions jitter(long ns) {
        return new LinkConditions(loss, duplicate, reorder, reorderMaxNs, delayNs, nonNegative(ns), corrupt);
    }

    /**
     * Probability that one bit of a packet is flipped on the wire.
     *
     * @param probability 0 to 1
     * @return a copy with it
     */
    public LinkConditions corrupt(double probability) {
        return new LinkConditions(loss, duplicate, reorder, reorderMaxNs, delayNs, jitterNs, check(probability));
    }

    /**
     * The probability that a packet is lost.
     *
     * @return the probability
     */
    public double loss() {
        return loss;
    }

    /**
     * The probability that a packet is delivered twice.
     *
     * @return the probability
     */
    public double duplicate() {
        return duplicate;
    }

    /**
     * The probability that a packet is held back.
     *
     * @return the probability
     */
    public double reorder() {
        return reorder;
    }

    /**
     * The longest a reordered packet is held back.
     *
     * @return nanoseconds
     */
    public long reorderMaxNs() {
        return reorderMaxNs;
    }

    /**
     * The fixed extra one-way delay.
     *
     * @return nanoseconds
     */
    public long delayNs() {
        return delayNs;
    }

    /**
     * The largest random extra delay.
     *
     * @return nanoseconds
     */
    public long jitterNs() {
        return jitterNs;
    }

    /**
     * The probability that a bit of a packet is flipped.
     *
     * @return the probability
     */
    public double corrupt() {
        return corrupt;
    }

    private static double check(double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException("a probability is in 0..1, got " + p);
        }
        return p;
    }

    private static long nonNegative(long ns) {
        if (ns < 0) {
            throw new IllegalArgumentException("a delay is not negative, got " + ns);
        }
        return ns;
    }

    @Override
    public String toString() {
        return String.format("loss=%.3f dup=%.3f reorder=%.3f/%dns delay=%dns jitter=%dns corrupt=%.3f",
            loss, duplicate, reorder, reorderMaxNs, delayNs, jitterNs, corrupt);
    }
}
