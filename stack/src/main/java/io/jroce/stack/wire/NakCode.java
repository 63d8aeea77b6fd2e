package io.jroce.stack.wire;

/** The NAK codes of an AETH whose kind is {@link AethKind#NAK} (IBTA Vol. 1 9.3, AETH syndrome). */
public enum NakCode {
    PSN_SEQUENCE_ERROR(0),
    INVALID_REQUEST(1),
    REMOTE_ACCESS_ERROR(2),
    REMOTE_OPERATIONAL_ERROR(3),
    /** Reliable Datagram only; jroce never sends it. */
    INVALID_RD_REQUEST(4);

    private static final NakCode[] BY_CODE = values();

    private final int code;

    NakCode(int code) {
        this.code = code;
    }

    /** The 5-bit value carried in the syndrome. */
    public int code() {
        return code;
    }

    /** The NAK code for a 5-bit value, or null for the reserved values 5 to 31. */
    public static NakCode fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
