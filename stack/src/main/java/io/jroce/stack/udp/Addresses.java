package io.jroce.stack.udp;

import java.net.Inet4Address;
import java.net.Inet6Address;
import io.jroce.stack.transport.IpAddresses;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import io.netty.util.NetUtil;

/** Conversions between {@link InetAddress} and the 16-byte form the RNIC uses (IPv4-mapped for IPv4). */
final class Addresses {
    private Addresses() {
    }

    static String describe(InetAddress address, int port) {
        String host = address.getHostAddress();
        return (address instanceof Inet6Address ? "[" + host + "]" : host) + ":" + port;
    }

    /**
     * A local address to bind, checked: an IPv4 or IPv6 literal ("192.0.2.1", "2001:db8::1",
     * "fe80::1%eth0", brackets allowed); not a host name, not a wildcard, not multicast, not one of
     * {@code already}.
     */
    static InetAddress localAddress(String ipLiteral, List<InetAddress> already) {
        Objects.requireNonNull(ipLiteral, "ipLiteral");
        String bare = ipLiteral.startsWith("[") && ipLiteral.endsWith("]")
            ? ipLiteral.substring(1, ipLiteral.length() - 1) : ipLiteral;
        if (!NetUtil.isValidIpV4Address(bare) && !NetUtil.isValidIpV6Address(bare)) {
            throw new IllegalArgumentException("not an IP address literal: " + ipLiteral);
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(bare);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("unusable IP address " + ipLiteral + ": " + e.getMessage(), e);
        }
        if (address.isAnyLocalAddress() || address.isMulticastAddress()) {
            throw new IllegalArgumentException("a local address must be a unicast address of this host, not "
                + ipLiteral + " (the transport needs to know which address a packet arrived on)");
        }
        for (InetAddress a : already) {
            if (Arrays.equals(a.getAddress(), address.getAddress())) {
                throw new IllegalArgumentException("local address given twice: " + ipLiteral);
            }
        }
        return address;
    }

    static boolean isIpv4(InetAddress address) {
        return address instanceof Inet4Address;
    }

    /** The multicast group of a 16-byte address (IPv4-mapped or IPv6). */
    static InetAddress groupAddress(byte[] group) {
        InetAddress address;
        try {
            address = InetAddress.getByAddress(IpAddresses.isIpv4Mapped(group) ? Arrays.copyOfRange(group, 12, 16) : group);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an address: " + Arrays.toString(group), e);
        }
        if (!address.isMulticastAddress()) {
            throw new IllegalArgumentException("not a multicast address: " + address.getHostAddress());
        }
        return address;
    }

    /** The interface that has the endpoint's address. */
    static NetworkInterface interfaceOf(LocalEndpoint ep) {
        try {
            NetworkInterface ni = NetworkInterface.getByInetAddress(ep.address);
            if (ni == null) {
                throw new UdpTransportException("no network interface has the address " + ep);
            }
            return ni;
        } catch (SocketException e) {
            throw new UdpTransportException("cannot find the interface of " + ep + ": " + e.getMessage(), e);
        }
    }
}
