package io.jroce.stack.fault;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** IP addresses as transports carry them: 16 bytes, IPv4 mapped into IPv6 (as a RoCEv2 GID). */
public final class Addresses {
    private Addresses() {
    }

    /** The 16-byte form of an IPv4 or IPv6 literal. */
    public static byte[] toGidBytes(String ipLiteral) {
        try {
            byte[] a = InetAddress.getByName(ipLiteral).getAddress();
            if (a.length == 16) {
                return a;
            }
            byte[] g = new byte[16];
            g[10] = (byte) 0xff;
            g[11] = (byte) 0xff;
            System.arraycopy(a, 0, g, 12, 4);
            return g;
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address literal: " + ipLiteral, e);
        }
    }

    public static boolean isV4Mapped(byte[] a) {
        for (int i = 0; i < 10; i++) {
            if (a[i] != 0) {
                return false;
            }
        }
        return a[10] == (byte) 0xff && a[11] == (byte) 0xff;
    }

    /** Dotted quad for an IPv4-mapped address, else the IPv6 text form; for traces and messages. */
    public static String format(byte[] a) {
        if (isV4Mapped(a)) {
            return (a[12] & 0xff) + "." + (a[13] & 0xff) + "." + (a[14] & 0xff) + "." + (a[15] & 0xff);
        }
        try {
            return InetAddress.getByAddress(a).getHostAddress();
        } catch (UnknownHostException e) {
            return "?";
        }
    }
}
