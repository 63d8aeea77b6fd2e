package io.jroce.stack.udp;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

/** Conversions between {@link InetAddress} and the 16-byte form the RNIC uses (IPv4-mapped for IPv4). */
final class Addresses {
    private Addresses() {
    }

    static byte[] toBytes16(InetAddress address) {
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

    static boolean isIpv4Mapped(byte[] a16) {
        for (int i = 0; i < 10; i++) {
            if (a16[i] != 0) {
                return false;
            }
        }
        return a16[10] == (byte) 0xFF && a16[11] == (byte) 0xFF;
    }

    /** The IPv4 address in bytes 12..15, big-endian. */
    static int ipv4(byte[] a16) {
        return (a16[12] & 0xFF) << 24 | (a16[13] & 0xFF) << 16 | (a16[14] & 0xFF) << 8 | a16[15] & 0xFF;
    }

    static String describe(InetAddress address, int port) {
        String host = address.getHostAddress();
        return (address instanceof Inet6Address ? "[" + host + "]" : host) + ":" + port;
    }

    static boolean isIpv4(InetAddress address) {
        return address instanceof Inet4Address;
    }
}
