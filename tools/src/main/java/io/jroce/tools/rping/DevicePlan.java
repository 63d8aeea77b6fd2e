package io.jroce.tools.rping;

import io.jroce.rnic.cm.api.HostRoute;
import io.jroce.tools.DeviceOptions;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Which jroce device rping's addresses call for, as librdmacm's address resolution picks the RDMA
 * device of the netdev that owns the address: a server's device owns its -a address, a client's its
 * source address (-I, or the one the host's routing table uses to reach -a). A server without an
 * address binds the wildcard as rping does, on a device opened on every address of the host's
 * interfaces that are up (a kernel's RDMA devices have them already). {@code --bind} names the
 * device's addresses instead.
 *
 * @param addresses   the device's addresses, one GID each
 * @param local       the server's address to bind, or the client's source (null: let the CM choose)
 * @param destination the client's destination, null for a server
 */
record DevicePlan(List<String> addresses, InetAddress local, InetAddress destination) {

    /** Where a server listens: -a, else every address of the host (of the wildcard's family). */
    static DevicePlan server(RpingOptions o) throws SocketException {
        InetAddress a = o.address();
        List<String> addresses;
        if (o.bindGiven()) {
            addresses = o.device().binds();
        } else if (!a.isAnyLocalAddress()) {
            addresses = List.of(a.getHostAddress());
        } else {
            addresses = hostAddresses(a instanceof Inet4Address);
        }
        return new DevicePlan(addresses, a, null); // rdma_bind_addr on -a, a wildcard included
    }

    /**
     * Where a client connects from: -I, else the route's source to -a. Without -a (0.0.0.0) rping's
     * destination is the wildcard, which the kernel resolves to the local device itself
     * ({@code cma_resolve_loopback}): the twin connects to its own source address.
     */
    static DevicePlan client(RpingOptions o) throws IOException {
        InetAddress destination = o.address();
        boolean v4 = destination instanceof Inet4Address;
        InetAddress source = o.source();
        if (source == null && destination.isAnyLocalAddress()) {
            source = o.bindGiven() ? literal(o.device().binds().get(0))
                : literal(v4 ? "127.0.0.1" : "::1");
        }
        if (source == null) {
            InetAddress routed = routeSource(destination);
            if (!o.bindGiven() || o.device().binds().stream().map(DevicePlan::literal).anyMatch(routed::equals)) {
                source = routed;
            }
        }
        List<String> addresses = o.bindGiven() ? o.device().binds() : List.of(source.getHostAddress());
        if (destination.isAnyLocalAddress()) {
            destination = source;
        }
        return new DevicePlan(addresses, source, destination);
    }

    /** The device's options with these addresses. */
    DeviceOptions device(DeviceOptions given) {
        return new DeviceOptions(given.name(), addresses, given.udpPort(), given.peerUdpPort(), given.pcap());
    }

    /** rdma_bind_addr's or the source's socket address. */
    InetSocketAddress localSocket(int port) {
        return local == null ? null : new InetSocketAddress(local, port);
    }

    /** The source address the kernel picks for {@code destination} (the host's route). */
    static InetAddress routeSource(InetAddress destination) throws IOException {
        return HostRoute.sourceFor(destination)
            .orElseThrow(() -> new IOException("no route to " + destination.getHostAddress()));
    }

    /**
     * The addresses of the host's interfaces that are up: IPv4 only for 0.0.0.0, all for ::0, as
     * the kernel's wildcard listens; IPv6 link-local ones are left out (a GID has no scope).
     */
    static List<String> hostAddresses(boolean ipv4Only) throws SocketException {
        List<String> all = new ArrayList<>();
        for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nif.isUp()) {
                continue;
            }
            for (InetAddress a : Collections.list(nif.getInetAddresses())) {
                if (a instanceof Inet6Address && (ipv4Only || a.isLinkLocalAddress())) {
                    continue;
                }
                String literal = a.getHostAddress();
                int scope = literal.indexOf('%');
                all.add(scope < 0 ? literal : literal.substring(0, scope));
            }
        }
        return all;
    }

    private static InetAddress literal(String address) {
        try {
            return InetAddress.getByName(address);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an address literal: " + address, e);
        }
    }
}
