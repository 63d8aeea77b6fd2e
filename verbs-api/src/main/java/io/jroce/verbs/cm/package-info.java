/**
 * RDMA connection management in the shape of librdmacm ({@code rdma_cma.h} in rdma-core): an
 * {@link io.jroce.verbs.cm.RdmaEventChannel} delivers the {@link io.jroce.verbs.cm.RdmaCmEvent}s of the
 * {@link io.jroce.verbs.cm.RdmaCmId}s created on it; an ID resolves an IP address to a device and a
 * route, creates its QP, and connects, accepts, rejects and disconnects it over the IB CM protocol
 * (IBTA Vol. 1 chapter 12), which moves the QP through its states as librdmacm does. librdmacm's
 * convenience layer is here too: {@link io.jroce.verbs.cm.RdmaAddrInfo} ({@code rdma_getaddrinfo}) and
 * the synchronous {@link io.jroce.verbs.cm.RdmaEndpoint} ({@code rdma_create_ep}, {@code rdma_verbs.h}),
 * whose failures are {@link io.jroce.verbs.cm.RdmaCmException}s naming what happened. See
 * docs/cm-guide.md.
 */
package io.jroce.verbs.cm;
