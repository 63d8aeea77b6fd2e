package io.jroce.rnic.cm.api;

import java.net.Inet4Address;
import java.net.InetSocketAddress;

import org.agrona.concurrent.UnsafeBuffer;

import io.jroce.rnic.cm.CmTimeouts;
import io.jroce.stack.mad.CmaHeaderFlyweight;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaCmOption;

/**
 * Where an RDMA CM ID is: the port it holds, the registered device it is bound to, its address (a
 * wildcard's has no device) and its peer's, their GIDs, the source GID's index, the options set with
 * rdma_set_option (TOS, ACK_TIMEOUT) and the resolved route's path MTU, traffic class and packet life
 * time; and what they make: the peer's address vector and the RDMA CM header of a REQ or SIDR_REQ.
 */
final class CmIdRoute {
    /**
     * The path MTU of a route without an SA: the kernel derives it from the netdev's MTU
     * ({@code cma_resolve_iboe_route}), 1024 for a 1500-byte Ethernet, which an rxe peer has; no
     * larger than this device's active MTU.
     */
    private static final Mtu ROUTE_MTU = Mtu.MTU_1024;
    /** An option not set with rdma_set_option. */
    private static final int UNSET = -1;
    /** The traffic class of a RoCE route without rdma_set_option TOS (cma.c {@code default_roce_tos}, 0). */
    private static final int DEFAULT_ROCE_TOS = 0;

    /** The port the ID holds ({@link CmPorts}), or null: none yet, or a connect request's ID. */
    private volatile CmPorts.Binding binding;
    volatile CmDevice dev;
    volatile InetSocketAddress local;
    volatile InetSocketAddress peer;
    Gid localGid;
    Gid peerGid;
    int sgidIndex;
    Mtu pathMtu;
    /** rdma_set_option TOS, or {@link #UNSET}; the next route's traffic class. */
    private int typeOfService = UNSET;
    /** rdma_set_option ACK_TIMEOUT, or {@link #UNSET}. */
    private int ackTimeout = UNSET;
    /** The resolved route's traffic class and packet life time ({@code cma_resolve_iboe_route}). */
    int trafficClass;
    int packetLifeTime = CmTimeouts.PACKET_LIFE_TIME;

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

    /**
     * rdma_set_option of an ID of {@code space}: TOS in any state, the next route takes it
     * ({@code rdma_set_service_type}); ACK_TIMEOUT for RC IDs only ({@code rdma_set_ack_timeout}, else EINVAL).
     */
    void setOption(PortSpace space, RdmaCmOption option, int value) {
        switch (option) {
            case TOS -> {
                if (value < 0 || value > 255) {
                    throw new InvalidAttributeException("the type of service is a byte, 0..255, got " + value);
                }
                typeOfService = value;
            }
            case ACK_TIMEOUT -> {
                if (space == PortSpace.UDP) {
                    throw new InvalidAttributeException("the ACK timeout applies to RC IDs, not to an ID of the UDP"
                        + " port space");
                }
                if (value < 0 || value > 31) {
                    throw new InvalidAttributeException("the ACK timeout is a 5-bit exponent, 0..31, got " + value);
                }
                ackTimeout = value;
            }
            default -> throw new IllegalStateException("unhandled option " + option);
        }
    }

    /**
     * rdma_resolve_route without an SA: the path MTU; the traffic class is the ID's type of service, and
     * an ACK timeout set (and not 0) makes the packet life time timeout - 1 ({@code cma_resolve_iboe_route};
     * IBTA 12.7.34: the ACK timeout is about twice the packet life time).
     */
    void resolveRoute() {
        Mtu active = dev.device.portActiveMtu();
        pathMtu = active.bytes() < ROUTE_MTU.bytes() ? active : ROUTE_MTU;
        trafficClass = typeOfService != UNSET ? typeOfService : DEFAULT_ROCE_TOS;
        packetLifeTime = ackTimeout > 0 ? ackTimeout - 1 : CmTimeouts.PACKET_LIFE_TIME;
    }

    /**
     * The QP's local ACK timeout at RTS: the ID's if set ({@code rdma_init_qp_attr}), else
     * {@code fromPath}, the path's packet life time + 1 ({@code cm_init_av_by_path}).
     */
    int qpAckTimeout(int fromPath) {
        return ackTimeout != UNSET ? ackTimeout : fromPath;
    }

    /** The peer as an address vector of this device's port, with the route's traffic class. */
    AddressVector peerAddressVector() {
        return addressVector(peerGid).trafficClass(trafficClass);
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
