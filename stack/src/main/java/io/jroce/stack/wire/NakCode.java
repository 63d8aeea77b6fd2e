package io.jroce.stack.wire;

/** The NAK codes of an AETH whose kind is {@link AethKind#NAK} (IBTA Vol. 1 9.3, AETH syndrome). */
public enum NakCode {
    PSN_SEQUENCE_ERROR(0, "PSN sequence error"),
    INVALID_REQUEST(1, "invalid request"),
    REMOTE_ACCESS_ERROR(2, "remote access error"),
    REMOTE_OPERATIONAL_ERROR(3, "remote operational error"),
    /** Reliable Datagram only; jroce never sends it. */
    INVALID_RD_REQUEST(4, "invalid RD request");

    private static final NakCode[] BY_CODE = values();

    private final int code;
    private final String words;

    NakCode(int code, String words) {
        this.code = code;
        this.words = words;
    }

    /** The code in words, as the spec names it: "PSN sequence error", "remote access error". */
    public String words() {
        return words;
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
