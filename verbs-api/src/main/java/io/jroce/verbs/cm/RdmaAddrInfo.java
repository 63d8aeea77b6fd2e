package io.jroce.verbs.cm;

import java.net.InetSocketAddress;
import java.net.ProtocolFamily;

import io.jroce.verbs.Arguments;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.QpType;

/**
 * {@code struct rdma_addrinfo} (rdma_cma.h): both the hints given to {@code rdma_getaddrinfo} and its
 * result, which {@code rdma_create_ep} takes. As hints: {@link #flags} ({@link #RAI_PASSIVE},
 * {@link #RAI_NUMERICHOST}), {@link #family}, {@link #qpType}, {@link #portSpace}, optionally a
 * {@link #srcAddress}. As a result: the same, with the node's address and the service's port in
 * {@link #srcAddress} (passive: where to listen) or {@link #dstAddress} (active: whom to connect to).
 * Defaults: no flags, any family, RC, port space TCP.
 */
public final class RdmaAddrInfo {
    /** The result is for a passive side: the node is the local address to bind and listen on. */
    public static final int RAI_PASSIVE = 0x1;
    /** The node is a numeric address: no name lookup. */
    public static final int RAI_NUMERICHOST = 0x2;

    private int flags;
    private ProtocolFamily family;
    private QpType qpType = QpType.RC;
    private PortSpace portSpace = PortSpace.TCP;
    private InetSocketAddress srcAddress;
    private InetSocketAddress dstAddress;

    /** {@code ai_flags}: {@link #RAI_PASSIVE} and {@link #RAI_NUMERICHOST}, or'ed. */
    public int flags() {
        return flags;
    }

    public RdmaAddrInfo flags(int flags) {
        if ((flags & ~(RAI_PASSIVE | RAI_NUMERICHOST)) != 0) {
            throw new InvalidAttributeException("unknown rdma_addrinfo flags 0x"
                + Integer.toHexString(flags & ~(RAI_PASSIVE | RAI_NUMERICHOST)) + " (RAI_PASSIVE and RAI_NUMERICHOST are offered)");
        }
        this.flags = flags;
        return this;
    }

    public boolean isPassive() {
        return (flags & RAI_PASSIVE) != 0;
    }

    /** {@code ai_family}: {@link java.net.StandardProtocolFamily#INET} or {@code INET6}, or null for either. */
    public ProtocolFamily family() {
        return family;
    }

    public RdmaAddrInfo family(ProtocolFamily family) {
        this.family = family;
        return this;
    }

    /** {@code ai_qp_type}: the QP type {@code rdma_create_ep} creates (RC; UD is not offered yet). */
    public QpType qpType() {
        return qpType;
    }

    public RdmaAddrInfo qpType(QpType qpType) {
        this.qpType = Arguments.notNull(qpType, "QP type");
        return this;
    }

    /** {@code ai_port_space}. */
    public PortSpace portSpace() {
        return portSpace;
    }

    public RdmaAddrInfo portSpace(PortSpace portSpace) {
        this.portSpace = Arguments.notNull(portSpace, "port space");
        return this;
    }

    /** {@code ai_src_addr}: the local address (passive: where to listen; active: null for any). */
    public InetSocketAddress srcAddress() {
        return srcAddress;
    }

    public RdmaAddrInfo srcAddress(InetSocketAddress address) {
        this.srcAddress = address;
        return this;
    }

    /** {@code ai_dst_addr}: the peer's address and listening port (active side), else null. */
    public InetSocketAddress dstAddress() {
        return dstAddress;
    }

    public RdmaAddrInfo dstAddress(InetSocketAddress address) {
        this.dstAddress = address;
        return this;
    }

    /** A copy, for a result made from hints. */
    public RdmaAddrInfo copy() {
        RdmaAddrInfo c = new RdmaAddrInfo();
        c.flags = flags;
        c.family = family;
        c.qpType = qpType;
        c.portSpace = portSpace;
        c.srcAddress = srcAddress;
        c.dstAddress = dstAddress;
        return c;
    }

    @Override
    public String toString() {
        return "rdma_addrinfo{flags=0x" + Integer.toHexString(flags) + ", family=" + family + ", qp_type=" + qpType
            + ", port_space=" + portSpace + ", src=" + srcAddress + ", dst=" + dstAddress + "}";
    }
}
