package io.jroce.stack.wire;

/** Why {@link RocePacket#wrap} refused a packet; the receive path counts each reason and drops the packet. */
public enum ParseResult {
    OK,
    /** Shorter than the BTH, its opcode's headers, or its pad count. */
    TRUNCATED,
    /** An opcode missing from {@link OpcodeTable}. */
    UNKNOWN_OPCODE,
    /** A BTH TVer other than 0 (IBTA Vol. 1 9.2; rxe drops these too). */
    BAD_TRANSPORT_VERSION
}
