package io.jroce.rnic.cm.api;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

import io.jroce.stack.mad.CmaHeaderFlyweight;
import io.jroce.verbs.Gid;

/** The source and destination addresses of the RDMA CM header ({@code cma_hdr}), to and from GIDs. */
final class CmaAddresses {
    private CmaAddresses() {
    }

    /** cma_hdr's address: IPv6 in 16 bytes, IPv4 in the last 4 after 12 zero bytes. */
    static void write(byte[] header, int offset, Gid gid) {
        if (gid.isIpv4Mapped()) {
            for (int i = 0; i < 4; i++) {
                header[offset + CmaHeaderFlyweight.IPV4_IN_ADDRESS + i] = gid.byteAt(12 + i);
            }
        } else {
            gid.copyTo(header, offset);
        }
    }

    /** The address at {@code offset} of a header of IP version {@code ipVersion}, as a GID. */
    static Gid read(byte[] header, int offset, int ipVersion) {
        try {
            if (ipVersion == 4) {
                return Gid.of(InetAddress.getByAddress(Arrays.copyOfRange(header,
                    offset + CmaHeaderFlyweight.IPV4_IN_ADDRESS, offset + CmaHeaderFlyweight.ADDRESS_LENGTH)));
            }
            return Gid.of(Arrays.copyOfRange(header, offset, offset + CmaHeaderFlyweight.ADDRESS_LENGTH));
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // 4 bytes always make an address
        }
    }
}
