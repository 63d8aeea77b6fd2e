package io.jroce.stack.wire;

/** RoCEv2 framing around the transport headers (IBTA Annex A17), and the padding rule. */
public final class RoceV2 {
    /** The IANA UDP destination port of RoCEv2. */
    public static final int UDP_PORT = 4791;
    /** The invariant CRC after the pad; jroce's packets (BTH onwards) are handed around without it. */
    public static final int ICRC_LENGTH = 4;
    /** The UDP header before the BTH. */
    public static final int UDP_HEADER_LENGTH = 8;

    private RoceV2() {
    }

    /** Bytes of pad that bring a payload to a multiple of 4 (IBTA Vol. 1 9.2: the BTH pad count). */
    public static int padCount(int payloadLength) {
        return -payloadLength & 3;
    }

    /** The payload plus its pad. */
    public static int paddedLength(int payloadLength) {
        return payloadLength + padCount(payloadLength);
    }

    /**
     * The payload of a packet whose UDP length field is {@code udpLength}: what remains after the UDP
     * header, the transport headers, the pad and the ICRC. Negative when the datagram is too short.
     */
    public static int payloadLength(int udpLength, int headerLength, int padCount) {
        return udpLength - UDP_HEADER_LENGTH - headerLength - padCount - ICRC_LENGTH;
    }
}
