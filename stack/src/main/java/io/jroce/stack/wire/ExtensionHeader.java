package io.jroce.stack.wire;

/**
 * The extended transport headers that can follow the BTH, declared in the order the IBTA puts them
 * on the wire (IBTA Vol. 1 9.3; RDETH, which would come first, is Reliable Datagram only).
 */
public enum ExtensionHeader {
    DETH(DethFlyweight.LENGTH),
    RETH(RethFlyweight.LENGTH),
    ATOMIC_ETH(AtomicEthFlyweight.LENGTH),
    AETH(AethFlyweight.LENGTH),
    ATOMIC_ACK_ETH(AtomicAckEthFlyweight.LENGTH),
    IMM_DT(ImmDtFlyweight.LENGTH),
    IETH(IethFlyweight.LENGTH);

    private final int length;

    ExtensionHeader(int length) {
        this.length = length;
    }

    /** The header's length in bytes. */
    public int length() {
        return length;
    }

    /** This header's bit in {@link OpcodeInfo#headerMask()}. */
    public int mask() {
        return 1 << ordinal();
    }
}
