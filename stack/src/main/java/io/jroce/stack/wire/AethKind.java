package io.jroce.stack.wire;

/** What an AETH syndrome says, from its bits 6-5 (IBTA Vol. 1 9.3, AETH syndrome). */
public enum AethKind {
    /** 00: positive acknowledgement; the low 5 bits are the end-to-end credit count. */
    ACK,
    /** 01: receiver not ready; the low 5 bits are the RNR NAK timer code. */
    RNR_NAK,
    /** 10: reserved, never sent; a receiver treats it as malformed. */
    RESERVED,
    /** 11: negative acknowledgement; the low 5 bits are a {@link NakCode}. */
    NAK;

    private static final AethKind[] BY_CODE = values();

    /** The 2-bit code of this kind. */
    public int code() {
        return ordinal();
    }

    /** The kind for a 2-bit code; no allocation (unlike {@code values()}). */
    public static AethKind fromCode(int code) {
        return BY_CODE[code & 0x3];
    }
}
