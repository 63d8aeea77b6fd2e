package io.jroce.stack.udp;

import io.jroce.stack.transport.IpAddresses;
import io.netty.channel.socket.DatagramChannel;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * One local IP address with its bound socket. Mutable state is touched on the event loop only. A
 * {@link DirectUdpTransport} uses the address part and the port (its sockets are {@link DirectSocket}s):
 * {@link #channel} and {@link #sendBatch} stay null there.
 */
final class LocalEndpoint {
    final InetAddress address;
    final boolean ipv4;
    /** The address in the RNIC's form; never handed out, the receiver copies it. */
    final byte[] address16;
    /** The IPv4 address as an int (IPv4 endpoints only). */
    final int ipv4Int;
    final DestinationCache destinations;
    DatagramChannel channel;
    int port;
    /** The datagrams queued since the last flush; set once the socket is bound. */
    SendBatch sendBatch;
    /** Something was written since the last flush. */
    boolean flushPending;

    LocalEndpoint(InetAddress address) {
        this.address = address;
        this.ipv4 = Addresses.isIpv4(address);
        this.address16 = IpAddresses.toBytes16(address);
        this.ipv4Int = ipv4 ? IpAddresses.ipv4(address16) : 0;
        int scope = address instanceof Inet6Address a6 ? a6.getScopeId() : 0;
        this.destinations = new DestinationCache(ipv4, scope);
    }

    InetSocketAddress socketAddress() {
        return new InetSocketAddress(address, port);
    }

    @Override
    public String toString() {
        return Addresses.describe(address, port);
    }
}
