package io.jroce.stack.wire;

/** Why {@link RocePacket#wrap} refused a packet; the receive path counts each reason and drops the packet. */
public enum ParseResult {
    OK,
    /** Shorter than the BTH, its opcode's headers, or its pad count. */
    TRUNCATED,
    /** An opcode missing from {@link OpcodeTable}. */
    UNKNOWN_OPCODE,
    /** A BTH TVer other than 0 (IBTA Vol. 1 9.2; rxe drops these too). */
    BAD_TRANSPORT_VERSION,
    /** A BTH PadCnt that does not bring the payload to a multiple of 4 bytes (IBTA Vol. 1 9.2). */
    BAD_PAD
}
