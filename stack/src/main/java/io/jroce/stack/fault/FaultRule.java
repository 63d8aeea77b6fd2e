package io.jroce.stack.fault;

/**
 * One scripted fault: an action on the packets a {@link PacketMatch} selects, narrowed to some
 * occurrences and a window of time. Rules are what a test says it does to the network, so they
 * read as the sentence that describes them:
 *
 * <pre>{@code
 * FaultRule.drop(PacketMatch.operation(RDMA_READ_RESPONSE)).occurrence(2)   // the 2nd READ response
 * FaultRule.drop(PacketMatch.acks()).forNs(5_000_000)                       // every ACK for 5 ms
 * FaultRule.drop(PacketMatch.psn(0x105).and(PacketMatch.requests())).once() // PSN 0x105 once
 * }</pre>
 *
 * <p>A rule counts the packets it saw and acted on, so that a test can assert the fault it
 * scripted really happened ({@link #applied()}), rather than pass because the packet never came.
 * Stateful: use one instance per run. Called on the transport's thread only.
 */
public final class FaultRule {
    private final PacketMatch match;
    private final FaultAction action;
    private final long delayNs;
    private String description;
    private long skip;
    private long limit = Long.MAX_VALUE;
    private long fromNs = Long.MIN_VALUE;
    private long untilNs = Long.MAX_VALUE;
    private long windowNs = -1;
    private long seen;
    private long applied;

    private FaultRule(PacketMatch match, FaultAction action, long delayNs) {
        this.match = match;
        this.action = action;
        this.delayNs = delayNs;
        this.description = action.name().toLowerCase();
    }

    /**
     * Drops matching packets.
     *
     * @param match the packets it acts on
     * @return the rule
     */
    public static FaultRule drop(PacketMatch match) {
        return new FaultRule(match, FaultAction.DROP, 0);
    }

    /**
     * Delivers matching packets twice.
     *
     * @param match the packets it acts on
     * @return the rule
     */
    public static FaultRule duplicate(PacketMatch match) {
        return new FaultRule(match, FaultAction.DUPLICATE, 0);
    }

    /**
     * Flips one bit of each matching packet (on UDP: does not send it, see {@link FaultInjectingTransport}).
     *
     * @param match the packets it acts on
     * @return the rule
     */
    public static FaultRule corrupt(PacketMatch match) {
        return new FaultRule(match, FaultAction.CORRUPT, 0);
    }

    /**
     * Holds matching packets back by {@code ns}, so that later packets on their link overtake them.
     *
     * @param match the packets it acts on
     * @param ns the delay in nanoseconds
     * @return the rule
     */
    public static FaultRule delay(PacketMatch match, long ns) {
        if (ns < 1) {
            throw new IllegalArgumentException("a delay rule holds a packet back at least 1 ns, got " + ns);
        }
        return new FaultRule(match, FaultAction.DELAY, ns);
    }

    /**
     * Acts only on the {@code n}-th matching packet (1 = the first).
     *
     * @param n the occurrence, from 1
     * @return this rule
     * @throws IllegalArgumentException {@code n} is below 1
     */
    public FaultRule occurrence(long n) {
        if (n < 1) {
            throw new IllegalArgumentException("occurrences count from 1, got " + n);
        }
        skip = n - 1;
        limit = 1;
        return this;
    }

    /**
     * Acts on at most {@code n} matching packets (after those {@link #occurrence} skips).
     *
     * @param n the most packets
     * @return this rule
     */
    public FaultRule times(long n) {
        limit = n;
        return this;
    }

    /**
     * Acts on one matching packet only: {@code times(1)}.
     *
     * @return this rule
     */
    public FaultRule once() {
        return times(1);
    }

    /**
     * Acts only on packets sent in [{@code fromNs}, {@code untilNs}) of the transport's clock.
     *
     * @param fromNs the window's start, inclusive
     * @param untilNs its end, exclusive
     * @return this rule
     */
    public FaultRule between(long fromNs, long untilNs) {
        this.fromNs = fromNs;
        this.untilNs = untilNs;
        return this;
    }

    /**
     * Acts for {@code ns} from the first matching packet on (an outage that starts with traffic).
     *
     * @param ns the outage's length in nanoseconds
     * @return this rule
     */
    public FaultRule forNs(long ns) {
        windowNs = ns;
        return this;
    }

    /**
     * A name for traces and messages, such as "drop 2nd READ response".
     *
     * @param name the name
     * @return this rule
     */
    public FaultRule named(String name) {
        description = name;
        return this;
    }

    /**
     * What the rule does to a packet.
     *
     * @return the action
     */
    public FaultAction action() {
        return action;
    }

    /**
     * How long a {@link FaultAction#DELAY} rule holds a packet back.
     *
     * @return the delay in nanoseconds, 0 for other actions
     */
    public long delayNs() {
        return delayNs;
    }

    /**
     * Matching packets seen inside the rule's time window.
     *
     * @return the count
     */
    public long seen() {
        return seen;
    }

    /**
     * Packets the rule acted on.
     *
     * @return the count
     */
    public long applied() {
        return applied;
    }

    /** Whether this packet is one the rule acts on; counts it either way. */
    boolean fires(OutgoingPacket p) {
        if (!match.matches(p)) {
            return false;
        }
        long now = p.timeNs();
        if (windowNs >= 0 && fromNs == Long.MIN_VALUE) {
            fromNs = now;
            untilNs = now + windowNs;
        }
        if (now < fromNs || now >= untilNs) { // not deadline arithmetic: the open ends are MIN/MAX_VALUE
            return false;
        }
        seen++;
        if (seen <= skip || applied >= limit) {
            return false;
        }
        applied++;
        return true;
    }

    @Override
    public String toString() {
        return description + " (seen " + seen + ", applied " + applied + ")";
    }
}
