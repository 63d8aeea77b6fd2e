package io.jroce.stack.udp;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

/** Conversions between {@link InetAddress} and the 16-byte form the RNIC uses (IPv4-mapped for IPv4). */
final class Addresses {
    private Addresses() {
    }

    static String describe(InetAddress address, int port) {
        String host = address.getHostAddress();
        return (address instanceof Inet6Address ? "[" + host + "]" : host) + ":" + port;
    }

    static boolean isIpv4(InetAddress address) {
        return address instanceof Inet4Address;
    }
}
