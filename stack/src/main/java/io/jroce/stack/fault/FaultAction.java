package io.jroce.stack.fault;

/** What a {@link FaultRule} does to a packet it selects. */
public enum FaultAction {
    /** The packet is lost. */
    DROP,
    /** A second copy is delivered after the packet. */
    DUPLICATE,
    /** One bit of the packet is flipped, so that the receiver's ICRC check drops it. */
    CORRUPT,
    /** The packet is held back by the rule's delay, and later packets overtake it. */
    DELAY
}
