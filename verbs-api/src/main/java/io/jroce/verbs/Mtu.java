package io.jroce.verbs;

/** Path MTU values of IBTA Vol. 1 (the ibv_mtu enum): 256 to 4096 bytes of payload per packet. */
public enum Mtu {
    /** 256 bytes of payload per packet. */
    MTU_256(1, 256),
    /** 512 bytes of payload per packet. */
    MTU_512(2, 512),
    /** 1024 bytes of payload per packet. */
    MTU_1024(3, 1024),
    /** 2048 bytes of payload per packet. */
    MTU_2048(4, 2048),
    /** 4096 bytes of payload per packet. */
    MTU_4096(5, 4096);

    private final int enumValue;
    private final int bytes;

    Mtu(int enumValue, int bytes) {
        this.enumValue = enumValue;
        this.bytes = bytes;
    }

    /**
     * The MTU's value in libibverbs.
     *
     * @return the ibv_mtu enumeration value (IBV_MTU_1024 = 3)
     */
    public int enumValue() {
        return enumValue;
    }

    /**
     * The MTU in bytes.
     *
     * @return 256 to 4096
     */
    public int bytes() {
        return bytes;
    }

    /**
     * The MTU of a size in bytes.
     *
     * @param bytes 256, 512, 1024, 2048 or 4096
     * @return the MTU
     * @throws InvalidAttributeException any other size
     */
    public static Mtu fromBytes(int bytes) {
        for (Mtu m : values()) {
            if (m.bytes == bytes) {
                return m;
            }
        }
        throw new InvalidAttributeException("path MTU must be 256, 512, 1024, 2048 or 4096 bytes, got " + bytes);
    }

    /**
     * The MTU of an ibv_mtu value.
     *
     * @param enumValue 1..5
     * @return the MTU
     * @throws InvalidAttributeException any other value
     */
    public static Mtu fromEnum(int enumValue) {
        for (Mtu m : values()) {
            if (m.enumValue == enumValue) {
                return m;
            }
        }
        throw new InvalidAttributeException("ibv_mtu enum must be 1..5, got " + enumValue);
    }

    /**
     * The largest MTU that fits in a size, as rxe derives active_mtu from the netdev MTU.
     *
     * @param bytes the room for a packet's payload
     * @return the largest MTU of at most {@code bytes}, and at least {@link #MTU_256}
     */
    public static Mtu largestAtMost(int bytes) {
        Mtu best = MTU_256;
        for (Mtu m : values()) {
            if (m.bytes <= bytes) {
                best = m;
            }
        }
        return best;
    }
}
