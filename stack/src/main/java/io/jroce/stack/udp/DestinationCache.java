package io.jroce.stack.udp;

import io.jroce.stack.transport.IpAddresses;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * Turns the RNIC's 16-byte destination address and port into the {@link InetSocketAddress} Netty
 * wants, creating it only on a miss. One per local endpoint, because a link-local IPv6 destination
 * takes the scope of the local address it is sent from.
 */
final class DestinationCache {
    private static final int SLOTS = 256;
    private final boolean ipv4;
    private final int scopeId;
    private final byte[][] keys = new byte[SLOTS][];
    private final int[] ports = new int[SLOTS];
    private final InetSocketAddress[] values = new InetSocketAddress[SLOTS];

    DestinationCache(boolean ipv4, int scopeId) {
        this.ipv4 = ipv4;
        this.scopeId = scopeId;
    }

    /** The socket address, or null when {@code address16} is not of this endpoint's family. */
    InetSocketAddress get(byte[] address16, int port) {
        int h = Arrays.hashCode(address16) * 31 + port;
        int slot = (h ^ h >>> 16) * 0x9E3779B1 >>> 24;
        InetSocketAddress cached = values[slot];
        if (cached != null && ports[slot] == port && Arrays.equals(keys[slot], address16)) {
            return cached;
        }
        InetSocketAddress created = create(address16, port);
        if (created != null) {
            keys[slot] = address16.clone();
            ports[slot] = port;
            values[slot] = created;
        }
        return created;
    }

    private InetSocketAddress create(byte[] a16, int port) {
        if (a16.length != 16 || IpAddresses.isIpv4Mapped(a16) != ipv4) {
            return null;
        }
        try {
            InetAddress address;
            if (ipv4) {
                address = InetAddress.getByAddress(Arrays.copyOfRange(a16, 12, 16));
            } else {
                boolean linkLocal = a16[0] == (byte) 0xFE && (a16[1] & 0xC0) == 0x80;
                address = linkLocal && scopeId > 0
                    ? Inet6Address.getByAddress(null, a16, scopeId)
                    : Inet6Address.getByAddress(null, a16, -1);
            }
            return new InetSocketAddress(address, port);
        } catch (UnknownHostException e) {
            return null; // only for a wrong length, excluded above
        }
    }
}
