package io.jroce.rnic.cm.api;

import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.cm.RdmaAddrInfo;
import io.jroce.verbs.cm.RdmaEndpoint;
import io.jroce.verbs.cm.RdmaEventChannel;

/**
 * The entry point of RDMA connection management over jroce devices opened with
 * {@code SoftRnic.builder().open()}: event channels (rdma_cma.h) and, for librdmacm's convenience
 * layer, {@code rdma_getaddrinfo} and {@code rdma_create_ep}.
 */
public final class RdmaCm {
    private RdmaCm() {
    }

    /**
     * {@code rdma_create_event_channel}.
     *
     * @return a new channel, the caller's to close
     */
    public static RdmaEventChannel createEventChannel() {
        return new SoftEventChannel();
    }

    /**
     * {@code rdma_getaddrinfo}: {@code node} (a host name or address; null: the wildcard address with
     * {@link RdmaAddrInfo#RAI_PASSIVE}, else the loopback address) and {@code service} (a port number,
     * or null for 0) as an {@link RdmaAddrInfo} with the {@code hints}' flags, family, QP type and port
     * space.
     *
     * @throws io.jroce.verbs.cm.AddressResolutionException the node has no address (of the family), or the service is not a port
     * @param node a host name or address, or null
     * @param service a port number, or null
     * @param hints the flags, family, QP type and port space wanted
     * @return the resolved addrinfo
     */
    public static RdmaAddrInfo getAddrInfo(String node, String service, RdmaAddrInfo hints) {
        return AddrInfoResolver.resolve(node, service, hints);
    }

    /**
     * {@code rdma_create_ep}: a synchronous endpoint. Passive ({@link RdmaAddrInfo#RAI_PASSIVE}): bound to
     * the source address (the wildcard: every device's requests), ready for {@code listen}; {@code qpInitAttr} is kept for the endpoints of its
     * requests. Active: address and route resolved (2000 ms each, as librdmacm) and, with
     * {@code qpInitAttr}, its RC QP created in INIT, ready for {@code connect}. CQs the attributes do not
     * name are created (one per queue) and destroyed with the endpoint.
     *
     * @param pd null for the device's own PD (shared by its endpoints, deallocated with the last)
     * @param qpInitAttr null for an endpoint without a QP; not changed
     * @throws io.jroce.verbs.cm.AddressResolutionException no open jroce device owns the source address or reaches the destination
     * @param res a result of {@link #getAddrInfo}
     * @return the endpoint, the caller's to close
     */
    public static RdmaEndpoint createEp(RdmaAddrInfo res, ProtectionDomain pd, QpInitAttributes qpInitAttr) {
        return EndpointCreation.create(res, pd, qpInitAttr);
    }
}
