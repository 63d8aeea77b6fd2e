package io.jroce.tools.udaddy;

import io.jroce.rnic.cm.api.HostRoute;
import io.jroce.tools.DeviceOptions;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Which jroce device udaddy's addresses call for, as librdmacm's address resolution picks the RDMA
 * device of the netdev that owns the address: the server's owns its bind address (without one, the
 * device has every IPv4 address of the host and the server binds 0.0.0.0, the first answer of
 * getaddrinfo for a passive wildcard); the client's owns its source (-b, or the address the host's
 * routing table uses to reach the server). {@code --bind} names the device's addresses instead.
 *
 * @param addresses the device's addresses, one GID each
 * @param local     the server's address to bind, or the client's source (null: let the CM choose)
 */
record UdaddyDevicePlan(List<String> addresses, InetAddress local) {

    static UdaddyDevicePlan server(UdaddyOptions o, InetAddress bind) throws SocketException {
        InetAddress local = bind != null ? bind : wildcard();
        List<String> addresses;
        if (o.bindGiven()) {
            addresses = o.device().binds();
        } else if (bind != null) {
            addresses = List.of(bind.getHostAddress());
        } else {
            addresses = hostIpv4Addresses();
        }
        return new UdaddyDevicePlan(addresses, local);
    }

    static UdaddyDevicePlan client(UdaddyOptions o, InetAddress source, InetAddress destination) throws IOException {
        if (source == null) {
            InetAddress routed = HostRoute.sourceFor(destination)
                .orElseThrow(() -> new IOException("no route to " + destination.getHostAddress()));
            if (!o.bindGiven() || o.device().binds().stream().anyMatch(b -> b.equals(routed.getHostAddress()))) {
                source = routed;
            }
        }
        List<String> addresses = o.bindGiven() ? o.device().binds() : List.of(source.getHostAddress());
        return new UdaddyDevicePlan(addresses, source);
    }

    /** The device's options with these addresses. */
    DeviceOptions device(DeviceOptions given) {
        return new DeviceOptions(given.name(), addresses, given.udpPort(), given.peerUdpPort(), given.pcap());
    }

    private static List<String> hostIpv4Addresses() throws SocketException {
        List<String> all = new ArrayList<>();
        for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (nif.isUp()) {
                for (InetAddress a : Collections.list(nif.getInetAddresses())) {
                    if (!(a instanceof Inet6Address)) {
                        all.add(a.getHostAddress());
                    }
                }
            }
        }
        return all;
    }

    private static InetAddress wildcard() {
        try {
            return InetAddress.getByAddress(new byte[4]);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
