package io.jroce.stack.udp;

import io.jroce.stack.transport.IpAddresses;
import java.net.InetAddress;

/**
 * Maps the sender {@link InetAddress} of a received datagram (a new object per packet) to its
 * 16-byte form without allocating on a hit: direct-mapped on {@code hashCode}, compared with
 * {@code equals}, which for both address families compares the raw bytes without copying them.
 */
final class SourceAddressCache {
    private static final int SLOTS = 256;
    private final InetAddress[] keys = new InetAddress[SLOTS];
    private final byte[][] values = new byte[SLOTS][];

    /** The cached 16-byte form; callers must not modify it. */
    byte[] lookup(InetAddress address) {
        int h = address.hashCode();
        int slot = (h ^ h >>> 16) * 0x9E3779B1 >>> 24;
        if (address.equals(keys[slot])) {
            return values[slot];
        }
        byte[] bytes = IpAddresses.toBytes16(address);
        keys[slot] = address;
        values[slot] = bytes;
        return bytes;
    }
}
