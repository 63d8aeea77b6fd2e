/**
 * RDMA connection management in the shape of librdmacm ({@code rdma_cma.h} in rdma-core): an
 * {@link io.jroce.verbs.cm.RdmaEventChannel} delivers the {@link io.jroce.verbs.cm.RdmaCmEvent}s of the
 * {@link io.jroce.verbs.cm.RdmaCmId}s created on it; an ID resolves an IP address to a device and a
 * route, creates its QP, and connects, accepts, rejects and disconnects it over the IB CM protocol
 * (IBTA Vol. 1 chapter 12), which moves the QP through its states as librdmacm does. See
 * docs/cm-guide.md.
 */
package io.jroce.verbs.cm;
