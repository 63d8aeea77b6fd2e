package io.jroce.tools.cmtime;

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
 * Which jroce device cmtime's addresses call for, as address resolution picks the RDMA device of
 * the netdev that owns the address: the server's owns -b (without it, every IPv4 address of the
 * host, and the server listens on 0.0.0.0); the client's owns -b, else the route's source to -s.
 * {@code --bind} names the device's addresses instead.
 *
 * @param addresses the device's addresses
 * @param local     the server's address to listen on, the client's source (null: the CM's choice)
 */
record CmtimeDevicePlan(List<String> addresses, InetAddress local) {

    static CmtimeDevicePlan server(CmtimeOptions o, InetAddress bind) throws IOException {
        InetAddress local = bind != null ? bind : InetAddress.getByAddress(new byte[4]);
        List<String> addresses = o.bindGiven() ? o.device().binds()
            : bind != null ? List.of(bind.getHostAddress()) : hostIpv4Addresses();
        return new CmtimeDevicePlan(addresses, local);
    }

    static CmtimeDevicePlan client(CmtimeOptions o, InetAddress source, InetAddress destination) throws IOException {
        if (source == null) {
            InetAddress routed = HostRoute.sourceFor(destination)
                .orElseThrow(() -> new IOException("no route to " + destination.getHostAddress()));
            if (!o.bindGiven() || o.device().binds().contains(routed.getHostAddress())) {
                source = routed;
            }
        }
        return new CmtimeDevicePlan(o.bindGiven() ? o.device().binds() : List.of(source.getHostAddress()), source);
    }

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

    /** getaddrinfo's first answer for a name or literal, or null. */
    static InetAddress resolve(String host) {
        try {
            return host.isEmpty() ? null : InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
