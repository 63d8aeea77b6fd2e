package io.jroce.stack.wire;

/**
 * Encodes and decodes the AETH syndrome byte (IBTA Vol. 1 9.3, AETH syndrome):
 * <pre>
 *   7 6 5 4 3 2 1 0
 *  +-+-+-+-+-+-+-+-+
 *  |0| K |  Value  |   K (kind): 00 ACK, 01 RNR NAK, 10 reserved, 11 NAK
 *  +-+-+-+-+-+-+-+-+
 * </pre>
 * Value is the credit count of an ACK, the RNR timer code of an RNR NAK, the {@link NakCode} of a NAK.
 */
public final class AethSyndrome {
    public static final int KIND_MASK = 0x60;
    public static final int KIND_SHIFT = 5;
    public static final int VALUE_MASK = 0x1F;
    /** Bit 7 is reserved and sent as 0. */
    public static final int RESERVED_MASK = 0x80;

    /**
     * The credit count meaning "no end-to-end credits are being reported" (the invalid count, 11111b).
     * rxe puts it in every ACK it sends, so its syndrome byte is always 0x1F.
     */
    public static final int NO_CREDIT_COUNT = 0x1F;

    /** RNR NAK timer in units of 10 us by code 0..31 (IBTA Vol. 1 Table 45, section 9.7.5.2.8). */
    private static final long[] RNR_TIMER_10US = {
        65536L, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192,
        256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768, 49152};

    private AethSyndrome() {
    }

    /** The delay an RNR NAK's timer code asks for, in nanoseconds (code 0 = 655.36 ms, code 1 = 0.01 ms). */
    public static long rnrTimerNs(int code) {
        return RNR_TIMER_10US[code & VALUE_MASK] * 10_000L;
    }

    public static AethKind kind(int syndrome) {
        return AethKind.fromCode((syndrome & KIND_MASK) >>> KIND_SHIFT);
    }

    /** The low 5 bits: credit count, RNR timer code or NAK code, depending on the kind. */
    public static int value(int syndrome) {
        return syndrome & VALUE_MASK;
    }

    /** The NAK code of a NAK syndrome; null if it is not a NAK or the code is reserved. */
    public static NakCode nakCode(int syndrome) {
        return kind(syndrome) == AethKind.NAK ? NakCode.fromCode(value(syndrome)) : null;
    }

    public static int ack(int creditCount) {
        return creditCount & VALUE_MASK;
    }

    public static int rnrNak(int rnrTimerCode) {
        return (AethKind.RNR_NAK.code() << KIND_SHIFT) | (rnrTimerCode & VALUE_MASK);
    }

    public static int nak(NakCode code) {
        return (AethKind.NAK.code() << KIND_SHIFT) | code.code();
    }

    /**
     * The syndrome in words, as a person reads an ACK: "ACK" (no credit count, as rxe sends it) or
     * "ACK, 5 credits", "RNR NAK, timer 14", "NAK PSN sequence error", "NAK invalid request", "NAK
     * remote access error", "NAK remote operational error", "NAK invalid RD request", "NAK with
     * reserved code 9", "reserved syndrome 0x40" (IBTA 9.7.5.2).
     *
     * @param syndrome the AETH's syndrome byte
     * @return it in words
     */
    public static String describe(int syndrome) {
        int value = value(syndrome);
        return switch (kind(syndrome)) {
            case ACK -> value == NO_CREDIT_COUNT ? "ACK" : "ACK, " + value + " credits";
            case RNR_NAK -> "RNR NAK, timer " + value;
            case NAK -> {
                NakCode code = NakCode.fromCode(value);
                yield code == null ? "NAK with reserved code " + value : "NAK " + code.words();
            }
            case RESERVED -> String.format("reserved syndrome 0x%02x", syndrome);
        };
    }
}
