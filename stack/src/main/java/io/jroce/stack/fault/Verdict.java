package io.jroce.stack.fault;

/**
 * The fate {@link FaultPolicy#decide} chose for one packet, for the transport to carry out.
 * Mutable and reused: one per transport, valid until the next decision.
 */
public final class Verdict {
    Fate fate;
    String cause;
    int corruptBit;
    boolean duplicate;
    long delayNs;
    long copyDelayNs;
    long holdNs;

    void clear() {
        fate = Fate.DELIVERED;
        cause = null;
        corruptBit = -1;
        duplicate = false;
        delayNs = 0;
        copyDelayNs = 0;
        holdNs = 0;
    }

    /**
     * DELIVERED, DROPPED, CORRUPTED or REORDERED: the packet's own fate (its copy is traced apart).
     *
     * @return the fate
     */
    public Fate fate() {
        return fate;
    }

    /**
     * Why: "loss", "corrupt", "reorder", or the name of the rule that acted; null when delivered.
     *
     * @return the cause, or null
     */
    public String cause() {
        return cause;
    }

    /**
     * Whether the packet is lost (its fate is DROPPED).
     *
     * @return true for DROPPED
     */
    public boolean dropped() {
        return fate == Fate.DROPPED;
    }

    /**
     * The bit to flip, counted from the first bit of the BTH; -1 for none.
     *
     * @return the bit, or -1
     */
    public int corruptBit() {
        return corruptBit;
    }

    /**
     * Whether a second copy is to be delivered as well.
     *
     * @return whether a copy follows
     */
    public boolean duplicate() {
        return duplicate;
    }

    /**
     * Extra delay of the packet (link delay plus jitter); it keeps the link's order.
     *
     * @return nanoseconds
     */
    public long delayNs() {
        return delayNs;
    }

    /**
     * Extra delay of the copy, if {@link #duplicate}; it keeps the link's order too.
     *
     * @return nanoseconds
     */
    public long copyDelayNs() {
        return copyDelayNs;
    }

    /**
     * How long the packet is held back beyond its delay, out of the link's order; 0 for none.
     *
     * @return nanoseconds
     */
    public long holdNs() {
        return holdNs;
    }

    /**
     * Tells {@code listener} each fault of this verdict for {@code packet}: a loss alone (nothing
     * else happens to a lost packet), else a corruption, a hold-back and a copy, as they apply.
     *
     * @param listener who hears the faults
     * @param packet   the packet decided, before any corruption
     * @param frame    the sender's number for it, 0 for none
     */
    public void report(FaultListener listener, OutgoingPacket packet, long frame) {
        if (fate == Fate.DROPPED) {
            listener.faultInjected(FaultAction.DROP, cause, packet, frame);
            return;
        }
        if (corruptBit >= 0) {
            listener.faultInjected(FaultAction.CORRUPT, cause, packet, frame);
        }
        if (holdNs > 0) {
            listener.faultInjected(FaultAction.DELAY, cause, packet, frame);
        }
        if (duplicate) {
            listener.faultInjected(FaultAction.DUPLICATE, cause, packet, frame);
        }
    }

    void note(Fate f, String why) {
        if (f.ordinal() > 0 && (fate == Fate.DELIVERED || precedence(f) > precedence(fate))) {
            fate = f;
        }
        cause = cause == null ? why : cause + ", " + why;
    }

    /** A lost packet is lost whatever else happened; a corrupt one is dropped by its receiver. */
    private static int precedence(Fate f) {
        return switch (f) {
            case DROPPED -> 3;
            case CORRUPTED -> 2;
            case REORDERED -> 1;
            default -> 0;
        };
    }
}
