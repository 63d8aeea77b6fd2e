package io.jroce.tools.explain;

import io.jroce.stack.transport.IpAddresses;
import io.jroce.stack.wire.RoceV2;
import java.util.Arrays;

/**
 * One end of a packet on the wire: a 16-byte address (IPv4 mapped into ::ffff:0:0/96, as a RoCEv2
 * GID holds it) and the UDP port it receives RoCE on.
 */
record Endpoint(byte[] address16, int port) {
    @Override
    public boolean equals(Object o) {
        return o instanceof Endpoint e && e.port == port && Arrays.equals(e.address16, address16);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(address16) * 31 + port;
    }

    /** The address as people write it (dotted quad for IPv4), with the port when it is not 4791. */
    @Override
    public String toString() {
        String a = address();
        if (port == RoceV2.UDP_PORT || port < 0) {
            return a;
        }
        return (a.contains(":") ? "[" + a + "]" : a) + ":" + port;
    }

    /** Just the address (an IPv4-mapped one as a dotted quad). */
    String address() {
        return IpAddresses.format(address16);
    }
}
