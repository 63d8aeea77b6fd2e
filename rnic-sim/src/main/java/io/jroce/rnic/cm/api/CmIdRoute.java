package io.jroce.rnic.cm.api;

import java.net.Inet4Address;
import java.net.InetSocketAddress;

import org.agrona.concurrent.UnsafeBuffer;

import io.jroce.stack.mad.CmaHeaderFlyweight;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.cm.PortSpace;

/**
 * Where an RDMA CM ID is: the port it holds, the registered device it is bound to, its address (a
 * wildcard's has no device) and its peer's, their GIDs, the source GID's index, and the resolved route's path MTU; and
 * what they make: the peer's address vector and the RDMA CM header of a REQ or SIDR_REQ.
 */
final class CmIdRoute {
    /**
     * The path MTU of a route without an SA: the kernel derives it from the netdev's MTU
     * ({@code cma_resolve_iboe_route}), 1024 for a 1500-byte Ethernet, which an rxe peer has; no
     * larger than this device's active MTU.
     */
    private static final Mtu ROUTE_MTU = Mtu.MTU_1024;

    /** The port the ID holds ({@link CmPorts}), or null: none yet, or a connect request's ID. */
    private volatile CmPorts.Binding binding;
    volatile CmDevice dev;
    volatile InetSocketAddress local;
    volatile InetSocketAddress peer;
    Gid localGid;
    Gid peerGid;
    int sgidIndex;
    Mtu pathMtu;

    /**
     * rdma_bind_addr of {@code owner}: an address of an open device and a port of {@code space}, or a
     * wildcard (0.0.0.0, ::) and a port, without a device (cma_bind_addr on an any address: listen then
     * takes every device's REQs).
     */
    void bind(SoftCmId owner, PortSpace space, InetSocketAddress address) {
        if (address.getAddress() == null) {
            throw new InvalidAttributeException("bind a local address of an open jroce device or a wildcard, not "
                + address);
        }
        if (address.getAddress().isAnyLocalAddress()) {
            binding = CmPorts.bind(owner, space, address.getPort(), true);
            local = new InetSocketAddress(address.getAddress(), binding.port);
            return;
        }
        CmDevice d = CmDevices.owning(address.getAddress());
        if (d == null) {
            throw new InvalidAttributeException("no open jroce device owns " + address.getAddress().getHostAddress());
        }
        binding = CmPorts.bind(owner, space, address.getPort(), false);
        useDevice(d, Gid.of(address.getAddress()), binding.port);
    }

    /**
     * rdma_resolve_addr of {@code owner}: the device that reaches {@code destination} and its source
     * address of the destination's family, unless bound to a device already; a port of {@code space} if
     * none is held yet (a wildcard's keeps its own).
     */
    void resolve(SoftCmId owner, PortSpace space, InetSocketAddress destination) {
        boolean v4 = destination.getAddress() instanceof Inet4Address;
        if (dev == null) {
            if (wildcard() && (local.getAddress() instanceof Inet4Address) != v4) {
                throw new InvalidAttributeException("bound to " + local + ", the destination " + destination
                    + " is of the other address family");
            }
            CmDevice d = CmDevices.reaching(destination.getAddress());
            if (d == null) {
                throw new InvalidAttributeException("no open jroce device reaches "
                    + destination.getAddress().getHostAddress());
            }
            if (binding == null) {
                binding = CmPorts.bind(owner, space, 0, false);
            } else {
                CmPorts.specify(binding); // the wildcard's port, now with a source address
            }
            useDevice(d, d.sourceFor(v4), binding.port);
        } else if (localGid.isIpv4Mapped() != v4) {
            throw new InvalidAttributeException("source " + local + " and destination " + destination
                + " are not of one address family");
        }
        peer = destination;
        peerGid = Gid.of(destination.getAddress());
    }

    /** Gives the port back (rdma_destroy_id). */
    void release() {
        if (binding != null) {
            CmPorts.release(binding);
        }
    }

    /** Bound to {@code gid} of {@code d} and {@code port}. */
    void useDevice(CmDevice d, Gid gid, int port) {
        dev = d;
        localGid = gid;
        sgidIndex = d.gidIndex(gid);
        local = new InetSocketAddress(gid.toInetAddress(), port);
    }

    /** Bound to 0.0.0.0 or :: (and not resolved since): no device of its own. */
    boolean wildcard() {
        return dev == null && local != null;
    }

    /** rdma_resolve_route without an SA: the path MTU. */
    void resolveRoute() {
        Mtu active = dev.device.portActiveMtu();
        pathMtu = active.bytes() < ROUTE_MTU.bytes() ? active : ROUTE_MTU;
    }

    /** The peer as an address vector of this device's port. */
    AddressVector peerAddressVector() {
        return addressVector(peerGid);
    }

    /** {@code gid} (the peer's or a group's) as an address vector from this ID's source GID. */
    AddressVector addressVector(Gid gid) {
        return new AddressVector().destGid(gid).sgidIndex(sgidIndex).udpPort(dev.peerUdpPort);
    }

    /** cma_format_hdr: the RDMA CM header (this side's and the peer's addresses, the port), then {@code user}. */
    byte[] cmaPrivateData(byte[] user) {
        byte[] privateData = new byte[CmaHeaderFlyweight.LENGTH + user.length];
        CmaHeaderFlyweight h = new CmaHeaderFlyweight().wrap(new UnsafeBuffer(privateData), 0);
        h.cmaVersion(CmaHeaderFlyweight.CMA_VERSION).ipVersion(localGid.isIpv4Mapped() ? 4 : 6).port(local.getPort());
        CmaAddresses.write(privateData, CmaHeaderFlyweight.SOURCE_ADDRESS_OFFSET, localGid);
        CmaAddresses.write(privateData, CmaHeaderFlyweight.DESTINATION_ADDRESS_OFFSET, peerGid);
        System.arraycopy(user, 0, privateData, CmaHeaderFlyweight.LENGTH, user.length);
        return privateData;
    }
}
