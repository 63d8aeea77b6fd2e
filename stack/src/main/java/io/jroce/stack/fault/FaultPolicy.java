package io.jroce.stack.fault;

import io.jroce.stack.transport.IpAddresses;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Decides the fate of every packet a transport sends: first the scripted {@link FaultRule}s, then
 * the random {@link LinkConditions} of the packet's link (an ordered pair of addresses, so each
 * direction has its own). Every random draw comes from one {@link Random} seeded at construction,
 * in a fixed order per packet, so a single-threaded run is reproduced exactly by its seed.
 *
 * <p>Draws depend only on the configured probabilities, never on what the rules decided: adding a
 * rule does not shift the random stream of the packets after it.
 */
public final class FaultPolicy {
    /** The reserved BTH byte after the P_Key, masked out of the ICRC. */
    private static final int MASKED_BTH_BYTE = 4;
    private final long seed;
    private final Random random;
    private LinkConditions defaults = LinkConditions.ideal();
    private final Map<ByteBuffer, LinkConditions> links = new HashMap<>();
    private final List<FaultRule> rules = new ArrayList<>();

    /**
     * An ideal network with no rules, drawing from {@code seed}.
     *
     * @param seed the seed of every random draw
     */
    public FaultPolicy(long seed) {
        this.seed = seed;
        this.random = new Random(seed);
    }

    /**
     * The seed of the random draws: print it when a test fails.
     *
     * @return the seed
     */
    public long seed() {
        return seed;
    }

    /**
     * Conditions of every link that has none of its own.
     *
     * @param conditions the conditions
     * @return this policy
     */
    public FaultPolicy defaults(LinkConditions conditions) {
        this.defaults = conditions;
        return this;
    }

    /**
     * Conditions of the link from {@code srcIp} to {@code dstIp} only (one direction).
     *
     * @param srcIp the sender's IP address literal
     * @param dstIp the receiver's IP address literal
     * @param conditions the conditions
     * @return this policy
     */
    public FaultPolicy link(String srcIp, String dstIp, LinkConditions conditions) {
        links.put(key(IpAddresses.toGidBytes(srcIp), IpAddresses.toGidBytes(dstIp)), conditions);
        return this;
    }

    /**
     * The same conditions from {@code a} to {@code b} and from {@code b} to {@code a}.
     *
     * @param a one IP address literal
     * @param b the other
     * @param conditions the conditions
     * @return this policy
     */
    public FaultPolicy bothWays(String a, String b, LinkConditions conditions) {
        return link(a, b, conditions).link(b, a, conditions);
    }

    /**
     * The conditions of one link.
     *
     * @param src the sender's address, 16 bytes
     * @param dst the receiver's address, 16 bytes
     * @return the link's own conditions, else the defaults
     */
    public LinkConditions conditions(byte[] src, byte[] dst) {
        if (links.isEmpty()) {
            return defaults;
        }
        return links.getOrDefault(key(src, dst), defaults);
    }

    /**
     * Adds a scripted rule, evaluated after those added before it; returns it to assert on later.
     *
     * @param rule the rule
     * @return {@code rule}
     */
    public FaultRule add(FaultRule rule) {
        rules.add(rule);
        return rule;
    }

    /**
     * The scripted rules.
     *
     * @return the rules, in evaluation order
     */
    public List<FaultRule> rules() {
        return Collections.unmodifiableList(rules);
    }

    /**
     * Removes every scripted rule.
     */
    public void clearRules() {
        rules.clear();
    }

    /**
     * Decides what happens to {@code p}, into {@code out}.
     *
     * @param p the packet being sent
     * @param out where the verdict is written
     * @return {@code out}
     */
    public Verdict decide(OutgoingPacket p, Verdict out) {
        out.clear();
        for (FaultRule rule : rules) {
            if (rule.fires(p)) {
                switch (rule.action()) {
                    case DROP -> out.note(Fate.DROPPED, rule.toString());
                    case DUPLICATE -> {
                        out.duplicate = true;
                        out.note(Fate.DELIVERED, rule.toString());
                    }
                    case CORRUPT -> {
                        out.corruptBit = corruptibleBit(p.length());
                        out.note(Fate.CORRUPTED, rule.toString());
                    }
                    case DELAY -> {
                        out.holdNs = Math.max(out.holdNs, rule.delayNs());
                        out.note(Fate.REORDERED, rule.toString());
                    }
                }
            }
        }
        LinkConditions c = conditions(p.src(), p.dst());
        if (c.loss() > 0 && random.nextDouble() < c.loss()) {
            out.note(Fate.DROPPED, "loss");
        }
        if (c.corrupt() > 0 && random.nextDouble() < c.corrupt()) {
            int bit = corruptibleBit(p.length());
            if (out.corruptBit < 0) {
                out.corruptBit = bit;
                out.note(Fate.CORRUPTED, "corrupt");
            }
        }
        if (c.duplicate() > 0 && random.nextDouble() < c.duplicate()) {
            out.duplicate = true;
            out.note(Fate.DELIVERED, "duplicate");
        }
        if (c.reorder() > 0 && random.nextDouble() < c.reorder()) {
            long hold = 1 + (long) (random.nextDouble() * c.reorderMaxNs());
            out.holdNs = Math.max(out.holdNs, hold);
            out.note(Fate.REORDERED, "reorder");
        }
        out.delayNs = c.delayNs() + jitter(c);
        if (out.duplicate) {
            out.copyDelayNs = c.delayNs() + jitter(c);
        }
        if (out.dropped()) {
            out.duplicate = false; // a lost packet has no copy either: duplication happens in the network after loss
        }
        return out;
    }

    /**
     * A bit of the packet the ICRC covers: never in BTH byte 4, which the ICRC masks (IBTA Annex A17),
     * so a corrupted packet is always one its receiver must drop, as a real link's FCS would.
     */
    private int corruptibleBit(int length) {
        if (length <= MASKED_BTH_BYTE) {
            return random.nextInt(Math.max(1, length * 8));
        }
        int bit = random.nextInt((length - 1) * 8);
        return bit < MASKED_BTH_BYTE * 8 ? bit : bit + 8;
    }

    private long jitter(LinkConditions c) {
        return c.jitterNs() > 0 ? (long) (random.nextDouble() * (c.jitterNs() + 1)) : 0;
    }

    private static ByteBuffer key(byte[] src, byte[] dst) {
        byte[] k = new byte[src.length + dst.length];
        System.arraycopy(src, 0, k, 0, src.length);
        System.arraycopy(dst, 0, k, src.length, dst.length);
        return ByteBuffer.wrap(k);
    }

    @Override
    public String toString() {
        return "seed " + seed + ", defaults " + defaults + ", " + links.size() + " links, rules " + rules;
    }
}
