package io.jroce.stack.wire;

/** The transport service an opcode belongs to: its top three bits (IBTA Vol. 1 9.2, Table 38). RD is not supported. */
public enum TransportType {
    /** 000: Reliable Connection. */
    RC(0x00),
    /** 001: Unreliable Connection. */
    UC(0x20),
    /** 011: Unreliable Datagram. */
    UD(0x60),
    /** 100: Congestion Notification Packet (IBTA Annex A17, RoCEv2). */
    CNP(0x80);

    private final int opcodePrefix;

    TransportType(int opcodePrefix) {
        this.opcodePrefix = opcodePrefix;
    }

    /** The opcode's top three bits, in place. */
    public int opcodePrefix() {
        return opcodePrefix;
    }
}
