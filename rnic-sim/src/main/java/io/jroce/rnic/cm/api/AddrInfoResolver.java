package io.jroce.rnic.cm.api;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

import io.jroce.verbs.cm.AddressResolutionException;
import io.jroce.verbs.cm.RdmaAddrInfo;

/**
 * {@code rdma_getaddrinfo} (librdmacm addrinfo.c): the system's getaddrinfo for the node, the
 * service as a port, and the hints carried over. Without a node, a passive result gets the wildcard
 * address and an active one the loopback address, as getaddrinfo gives them.
 */
final class AddrInfoResolver {
    private static final Pattern IPV4_LITERAL = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private AddrInfoResolver() {
    }

    static RdmaAddrInfo resolve(String node, String service, RdmaAddrInfo hints) {
        RdmaAddrInfo h = hints == null ? new RdmaAddrInfo() : hints;
        RdmaAddrInfo result = h.copy();
        if (node == null && service == null) {
            if (hints == null) {
                throw new AddressResolutionException("rdma_getaddrinfo needs a node, a service or hints");
            }
            return result;
        }
        int port = port(service);
        InetSocketAddress address = new InetSocketAddress(address(node, h), port);
        if (h.isPassive()) {
            result.srcAddress(address);
        } else {
            result.dstAddress(address);
        }
        return result;
    }

    private static int port(String service) {
        if (service == null) {
            return 0;
        }
        try {
            int port = Integer.parseInt(service);
            if (port >= 0 && port <= 0xFFFF) {
                return port;
            }
        } catch (NumberFormatException notANumber) {
            // named below
        }
        throw new AddressResolutionException("service \"" + service
            + "\" is not a port number 0..65535 (service names are not looked up)");
    }

    private static InetAddress address(String node, RdmaAddrInfo h) {
        boolean v6 = h.family() == StandardProtocolFamily.INET6;
        try {
            if (node == null) {
                if (h.isPassive()) {
                    return InetAddress.getByName(v6 ? "::" : "0.0.0.0");
                }
                return InetAddress.getByName(v6 ? "::1" : "127.0.0.1");
            }
            boolean literal = node.indexOf(':') >= 0 || IPV4_LITERAL.matcher(node).matches();
            if ((h.flags() & RdmaAddrInfo.RAI_NUMERICHOST) != 0 && !literal) {
                throw new AddressResolutionException("\"" + node + "\" is not a numeric address (RAI_NUMERICHOST)");
            }
            for (InetAddress a : InetAddress.getAllByName(node)) {
                if (h.family() == null || (v6 ? a instanceof Inet6Address : a instanceof Inet4Address)) {
                    return a;
                }
            }
            throw new AddressResolutionException("\"" + node + "\" has no " + h.family() + " address");
        } catch (UnknownHostException e) {
            throw new AddressResolutionException("cannot resolve \"" + node + "\": " + e.getMessage(), e);
        }
    }
}
