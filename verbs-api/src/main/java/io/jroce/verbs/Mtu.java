package io.jroce.verbs;

/** Path MTU values of IBTA Vol. 1 (the ibv_mtu enum): 256 to 4096 bytes of payload per packet. */
public enum Mtu {
    MTU_256(1, 256),
    MTU_512(2, 512),
    MTU_1024(3, 1024),
    MTU_2048(4, 2048),
    MTU_4096(5, 4096);

    private final int enumValue;
    private final int bytes;

    Mtu(int enumValue, int bytes) {
        this.enumValue = enumValue;
        this.bytes = bytes;
    }

    /** The ibv_mtu enumeration value (IBV_MTU_1024 = 3). */
    public int enumValue() {
        return enumValue;
    }

    public int bytes() {
        return bytes;
    }

    public static Mtu fromBytes(int bytes) {
        for (Mtu m : values()) {
            if (m.bytes == bytes) {
                return m;
            }
        }
        throw new InvalidAttributeException("path MTU must be 256, 512, 1024, 2048 or 4096 bytes, got " + bytes);
    }

    public static Mtu fromEnum(int enumValue) {
        for (Mtu m : values()) {
            if (m.enumValue == enumValue) {
                return m;
            }
        }
        throw new InvalidAttributeException("ibv_mtu enum must be 1..5, got " + enumValue);
    }

    /** The largest MTU that fits in {@code bytes}, as rxe derives active_mtu from the netdev MTU. */
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
