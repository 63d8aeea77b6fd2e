package io.jroce.tools.perftest;

import io.jroce.verbs.Gid;
import java.nio.ByteBuffer;

/**
 * The 40 bytes a UD receive starts with, read as ibv_init_ah_from_wc reads them on RoCEv2: an IPv4
 * header in the last 20 bytes (version 4, IHL 5) when the first 20 are zero, else an IPv6 header.
 */
final class GrhArea {
    private static final int IPV4_HEADER = 20;

    private GrhArea() {
    }

    /** The sender's GID (IPv4: mapped). */
    static Gid source(ByteBuffer buf, int offset) {
        return ipv4(buf, offset) ? ipv4Gid(buf, offset + IPV4_HEADER + 12) : gid(buf, offset + 8);
    }

    /** The GID the message was sent to. */
    static Gid destination(ByteBuffer buf, int offset) {
        return ipv4(buf, offset) ? ipv4Gid(buf, offset + IPV4_HEADER + 16) : gid(buf, offset + 24);
    }

    private static boolean ipv4(ByteBuffer buf, int offset) {
        for (int i = 0; i < IPV4_HEADER; i++) {
            if (buf.get(offset + i) != 0) {
                return false;
            }
        }
        return buf.get(offset + IPV4_HEADER) == 0x45;
    }

    private static Gid ipv4Gid(ByteBuffer buf, int at) {
        byte[] b = new byte[Gid.LENGTH];
        b[10] = (byte) 0xFF;
        b[11] = (byte) 0xFF;
        buf.get(at, b, 12, 4);
        return Gid.of(b);
    }

    private static Gid gid(ByteBuffer buf, int at) {
        byte[] b = new byte[Gid.LENGTH];
        buf.get(at, b);
        return Gid.of(b);
    }
}
