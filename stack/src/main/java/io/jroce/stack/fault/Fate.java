package io.jroce.stack.fault;

/** What the network did with one transmitted packet, as a {@link PacketTrace} records it. */
public enum Fate {
    /** Delivered unchanged, in order with the link's other packets. */
    DELIVERED,
    /** Lost: never delivered. */
    DROPPED,
    /** Delivered with one bit flipped after the ICRC was computed: the receiver must drop it. */
    CORRUPTED,
    /** An extra copy of a packet that was also delivered. */
    DUPLICATED,
    /** Held back, so that packets sent after it on the same link overtake it. */
    REORDERED
}
