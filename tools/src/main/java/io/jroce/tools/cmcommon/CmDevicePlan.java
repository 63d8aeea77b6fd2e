package io.jroce.tools.cmcommon;

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
 * Which jroce device a librdmacm example's addresses call for, as the kernel's address resolution
 * picks the RDMA device of the netdev that owns the address: a passive side's device owns the
 * address it binds, an active side's its source address (given, or the one the host's routing
 * table uses to reach the destination). A passive side on a wildcard binds the wildcard, as the C
 * programs do, on a device opened on every address of the host's interfaces that are up (a
 * kernel's RDMA devices have them already). {@code --bind} names the device's addresses instead.
 *
 * @param addresses   the device's addresses, one GID each
 * @param local       the passive side's address to bind (a wildcard included), or the active side's source
 * @param destination the active side's destination, null for a passive side
 */
public record CmDevicePlan(List<String> addresses, InetAddress local, InetAddress destination) {
    /**
     * Copies the list of addresses.
     *
     * @param addresses the device's addresses
     * @param local the address to bind, or the source
     * @param destination the destination, or null
     */
    public CmDevicePlan {
        addresses = List.copyOf(addresses);
    }

    /**
     * Where a passive side listens: on {@code local}, whose device has that address, or for a
     * wildcard every address of the host of the wildcard's family (0.0.0.0: IPv4; ::, which takes
     * IPv4 too: all).
     *
     * @param local its address, or a wildcard
     * @param binds the --bind addresses, or null
     * @return the plan
     * @throws SocketException the host's interfaces cannot be listed
     */
    public static CmDevicePlan passive(InetAddress local, List<String> binds) throws SocketException {
        List<String> addresses;
        if (binds != null) {
            addresses = binds;
        } else if (!local.isAnyLocalAddress()) {
            addresses = List.of(local.getHostAddress());
        } else {
            addresses = hostAddresses(local instanceof Inet4Address);
        }
        return new CmDevicePlan(addresses, local, null); // rdma_bind_addr on local, a wildcard included
    }

    /**
     * Where an active side connects from: {@code source}, else the route's source to
     * {@code destination} (or, when --bind gave the device other addresses, its first of the
     * destination's family). A wildcard destination is the local device itself, as the kernel's
     * {@code cma_resolve_loopback} makes it.
     *
     * @param destination the peer's address
     * @param source the source address given, or null
     * @param binds the --bind addresses, or null
     * @return the plan
     * @throws IOException the route to the destination cannot be looked up
     */
    public static CmDevicePlan active(InetAddress destination, InetAddress source, List<String> binds)
        throws IOException {
        if (source == null && destination.isAnyLocalAddress()) {
            source = binds != null ? literal(binds.get(0))
                : literal(destination instanceof Inet4Address ? "127.0.0.1" : "::1");
        }
        if (source == null) {
            InetAddress routed = HostRoute.sourceFor(destination)
                .orElseThrow(() -> new IOException("no route to " + destination.getHostAddress()));
            source = routed;
            if (binds != null && binds.stream().map(CmDevicePlan::literal).noneMatch(routed::equals)) {
                boolean v4 = destination instanceof Inet4Address;
                source = binds.stream().map(CmDevicePlan::literal)
                    .filter(a -> (a instanceof Inet4Address) == v4).findFirst().orElse(literal(binds.get(0)));
            }
        }
        List<String> addresses = binds != null ? binds : List.of(source.getHostAddress());
        return new CmDevicePlan(addresses, source, destination.isAnyLocalAddress() ? source : destination);
    }

    /**
     * The device's options with these addresses.
     *
     * @param given the options from the command line
     * @return them with this plan's addresses
     */
    public DeviceOptions device(DeviceOptions given) {
        return new DeviceOptions(given.name(), addresses, given.udpPort(), given.peerUdpPort(), given.pcap(),
            given.progress());
    }

    /**
     * The passive side's bind address, or the active side's source, on {@code port}.
     *
     * @param port the port
     * @return the socket address
     */
    public InetSocketAddress localSocket(int port) {
        return new InetSocketAddress(local, port);
    }

    /**
     * The addresses of the host's interfaces that are up: IPv4 only, or all; IPv6 link-local ones
     * are left out (a GID has no scope).
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
