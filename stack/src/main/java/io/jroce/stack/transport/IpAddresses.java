package io.jroce.stack.transport;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * IP addresses as transports and the RNIC carry them: 16 bytes, IPv4 mapped into IPv6
 * ({@code ::ffff:a.b.c.d}), which is also the RoCEv2 GID of the address.
 */
public final class IpAddresses {
    private IpAddresses() {
    }

    /**
     * The 16-byte form of an IPv4 or IPv6 literal.
     *
     * @param ipLiteral the literal
     * @return 16 bytes, IPv4-mapped for IPv4
     */
    public static byte[] toGidBytes(String ipLiteral) {
        try {
            return toBytes16(InetAddress.getByName(ipLiteral));
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address literal: " + ipLiteral, e);
        }
    }

    /**
     * The 16-byte form of an address.
     *
     * @param address the address
     * @return 16 bytes, IPv4-mapped for IPv4
     */
    public static byte[] toBytes16(InetAddress address) {
        byte[] raw = address.getAddress();
        if (raw.length == 16) {
            return raw;
        }
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xFF;
        mapped[11] = (byte) 0xFF;
        System.arraycopy(raw, 0, mapped, 12, 4);
        return mapped;
    }

    /**
     * Whether the address is an IPv4-mapped one.
     *
     * @param a16 an address, 16 bytes
     * @return true for {@code ::ffff:a.b.c.d}
     */
    public static boolean isIpv4Mapped(byte[] a16) {
        for (int i = 0; i < 10; i++) {
            if (a16[i] != 0) {
                return false;
            }
        }
        return a16[10] == (byte) 0xFF && a16[11] == (byte) 0xFF;
    }

    /**
     * An IPv6 multicast address (ff00::/8) or an IPv4-mapped 224.0.0.0/4 one.
     *
     * @param a16 an address, 16 bytes
     * @return true for a multicast address
     */
    public static boolean isMulticast(byte[] a16) {
        return a16[0] == (byte) 0xFF || isIpv4Mapped(a16) && (a16[12] & 0xF0) == 0xE0;
    }

    /**
     * The IPv4 address in bytes 12..15, big-endian.
     *
     * @param a16 an IPv4-mapped address, 16 bytes
     * @return the IPv4 address as an int
     */
    public static int ipv4(byte[] a16) {
        return (a16[12] & 0xFF) << 24 | (a16[13] & 0xFF) << 16 | (a16[14] & 0xFF) << 8 | a16[15] & 0xFF;
    }

    /**
     * Dotted quad for an IPv4-mapped address, else the IPv6 text form; for traces and messages.
     *
     * @param a16 an address, 16 bytes
     * @return the text
     */
    public static String format(byte[] a16) {
        if (isIpv4Mapped(a16)) {
            return (a16[12] & 0xff) + "." + (a16[13] & 0xff) + "." + (a16[14] & 0xff) + "." + (a16[15] & 0xff);
        }
        try {
            return InetAddress.getByAddress(a16).getHostAddress();
        } catch (UnknownHostException e) {
            return "?";
        }
    }
}
