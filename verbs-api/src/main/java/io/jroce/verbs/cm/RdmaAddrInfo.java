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

    /** Empty hints: no flags, any family, RC, port space TCP, no addresses. */
    public RdmaAddrInfo() {
    }

    /**
     * The {@code ai_flags}: {@link #RAI_PASSIVE} and {@link #RAI_NUMERICHOST}, or'ed.
     *
     * @return the flags (none by default)
     */
    public int flags() {
        return flags;
    }

    /**
     * Sets the {@code ai_flags}: {@link #RAI_PASSIVE} and {@link #RAI_NUMERICHOST}, or'ed.
     *
     * @param flags the flags (none by default)
     * @return this addrinfo
     * @throws InvalidAttributeException a flag other than those two is set
     */
    public RdmaAddrInfo flags(int flags) {
        if ((flags & ~(RAI_PASSIVE | RAI_NUMERICHOST)) != 0) {
            throw new InvalidAttributeException("unknown rdma_addrinfo flags 0x"
                + Integer.toHexString(flags & ~(RAI_PASSIVE | RAI_NUMERICHOST)) + " (RAI_PASSIVE and RAI_NUMERICHOST are offered)");
        }
        this.flags = flags;
        return this;
    }

    /**
     * Whether {@link #RAI_PASSIVE} is set.
     *
     * @return true for the passive side
     */
    public boolean isPassive() {
        return (flags & RAI_PASSIVE) != 0;
    }

    /**
     * The {@code ai_family}: {@link java.net.StandardProtocolFamily#INET} or {@code INET6}.
     *
     * @return the family, or null for either
     */
    public ProtocolFamily family() {
        return family;
    }

    /**
     * Sets the {@code ai_family}: {@link java.net.StandardProtocolFamily#INET} or {@code INET6}.
     *
     * @param family the family, or null for either
     * @return this addrinfo
     */
    public RdmaAddrInfo family(ProtocolFamily family) {
        this.family = family;
        return this;
    }

    /**
     * The {@code ai_qp_type}: the QP type {@code rdma_create_ep} creates (RC; UD is not offered yet).
     *
     * @return the QP type (RC by default)
     */
    public QpType qpType() {
        return qpType;
    }

    /**
     * Sets the {@code ai_qp_type}: the QP type {@code rdma_create_ep} creates (RC; UD is not offered yet).
     *
     * @param qpType the QP type (RC by default)
     * @return this addrinfo
     * @throws InvalidAttributeException it is null
     */
    public RdmaAddrInfo qpType(QpType qpType) {
        this.qpType = Arguments.notNull(qpType, "QP type");
        return this;
    }

    /**
     * The {@code ai_port_space}.
     *
     * @return the port space (TCP by default)
     */
    public PortSpace portSpace() {
        return portSpace;
    }

    /**
     * Sets the {@code ai_port_space}.
     *
     * @param portSpace the port space (TCP by default)
     * @return this addrinfo
     * @throws InvalidAttributeException it is null
     */
    public RdmaAddrInfo portSpace(PortSpace portSpace) {
        this.portSpace = Arguments.notNull(portSpace, "port space");
        return this;
    }

    /**
     * The {@code ai_src_addr}: the local address (passive: where to listen; active: null for any).
     *
     * @return the address and port, or null
     */
    public InetSocketAddress srcAddress() {
        return srcAddress;
    }

    /**
     * Sets the {@code ai_src_addr}: the local address (passive: where to listen; active: null for any).
     *
     * @param address the address and port, or null
     * @return this addrinfo
     */
    public RdmaAddrInfo srcAddress(InetSocketAddress address) {
        this.srcAddress = address;
        return this;
    }

    /**
     * The {@code ai_dst_addr}: the peer's address and listening port (active side).
     *
     * @return the address and port, or null
     */
    public InetSocketAddress dstAddress() {
        return dstAddress;
    }

    /**
     * Sets the {@code ai_dst_addr}: the peer's address and listening port (active side).
     *
     * @param address the address and port, or null
     * @return this addrinfo
     */
    public RdmaAddrInfo dstAddress(InetSocketAddress address) {
        this.dstAddress = address;
        return this;
    }

    /**
     * A copy, for a result made from hints.
     *
     * @return a new addrinfo with the same values
     */
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
