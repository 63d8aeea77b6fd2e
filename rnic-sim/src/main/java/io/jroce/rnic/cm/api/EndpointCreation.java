package io.jroce.rnic.cm.api;

import java.net.InetSocketAddress;

import io.jroce.verbs.Arguments;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.cm.AddressResolutionException;
import io.jroce.verbs.cm.RdmaAddrInfo;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaEndpoint;

/**
 * {@code rdma_create_ep}: a synchronous endpoint's ID on a channel of its own, bound (passive) or
 * resolved through its route (active), its PD (the one given, or the device's own), and an active
 * endpoint's QP when attributes are given; a failure closes what was made.
 */
final class EndpointCreation {
    /** rdma_create_ep's address and route resolution timeout. */
    private static final int RESOLVE_TIMEOUT_MS = 2000;

    private EndpointCreation() {
    }

    /** {@code rdma_create_ep}. */
    static SoftEndpoint create(RdmaAddrInfo res, ProtectionDomain pd, QpInitAttributes init) {
        Arguments.notNull(res, "rdma_addrinfo");
        if (res.qpType() != QpType.RC) {
            throw new InvalidAttributeException("only RC endpoints are offered yet, not " + res.qpType());
        }
        SoftEventChannel channel = new SoftEventChannel();
        SoftCmId id = (SoftCmId) channel.createId(res.portSpace());
        SoftEndpoint ep = null;
        try {
            if (res.isPassive()) {
                InetSocketAddress src = res.srcAddress();
                if (src == null) {
                    throw new AddressResolutionException("a passive rdma_addrinfo needs a source address (RAI_PASSIVE with a node)");
                }
                resolving(() -> id.bindAddr(src));
            } else {
                InetSocketAddress dst = res.dstAddress();
                if (dst == null) {
                    throw new AddressResolutionException("an active rdma_addrinfo needs a destination address (a node)");
                }
                resolving(() -> id.resolveAddr(res.srcAddress(), dst, RESOLVE_TIMEOUT_MS));
            }
            CmDevice dev = id.cmDevice();
            if (dev == null) {
                // A passive endpoint on the wildcard: no device until a request comes; each request's
                // endpoint takes the PD given (createQp refuses it on another device) or its device's own.
                QpInitAttributes template = init == null ? null : EndpointQueues.copy(init);
                return new SoftEndpoint(channel, id, true, pd, null, template, RdmaEndpoint.DEFAULT_TIMEOUT);
            }
            if (pd != null && pd.device() != dev.device) {
                throw new InvalidAttributeException("the protection domain is of device " + pd.device().name()
                    + ", the endpoint's address is of " + dev.device.name());
            }
            QpInitAttributes template = init == null ? null : EndpointQueues.copy(init);
            ep = new SoftEndpoint(channel, id, res.isPassive(), pd != null ? pd : dev.acquireDefaultPd(),
                pd != null ? null : dev, res.isPassive() ? template : null, RdmaEndpoint.DEFAULT_TIMEOUT);
            if (!res.isPassive()) {
                ep.events.await(RdmaCmEventType.ADDR_RESOLVED, "rdma_resolve_addr");
                id.resolveRoute(RESOLVE_TIMEOUT_MS);
                ep.events.await(RdmaCmEventType.ROUTE_RESOLVED, "rdma_resolve_route");
                if (template != null) {
                    ep.create(template);
                }
            }
            return ep;
        } catch (RuntimeException e) {
            if (ep != null) {
                ep.closeQuietly(e);
            } else {
                SoftEndpoint.closeId(channel, id);
            }
            throw e;
        }
    }

    private static void resolving(Runnable call) {
        try {
            call.run();
        } catch (InvalidAttributeException e) {
            throw new AddressResolutionException(e.getMessage(), e);
        }
    }
}
