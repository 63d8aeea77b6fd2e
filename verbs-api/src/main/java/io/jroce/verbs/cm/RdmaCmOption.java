package io.jroce.verbs.cm;

/**
 * The options of level {@code RDMA_OPTION_ID} that {@link RdmaCmId#setOption} sets, as librdmacm's
 * {@code rdma_set_option} names them (rdma_cma.h), with the kernel's meaning (cma.c).
 */
public enum RdmaCmOption {
    /**
     * {@code RDMA_OPTION_ID_TOS} ({@code rdma_set_service_type}): the type of service, 0..255. On RoCE
     * it becomes the traffic class of the path the ID resolves next ({@code cma_resolve_iboe_route}):
     * the REQ's primary path and the QP's GRH; set it before {@link RdmaCmId#resolveRoute}.
     */
    TOS(0),
    /**
     * {@code RDMA_OPTION_ID_ACK_TIMEOUT} ({@code rdma_set_ack_timeout}): the QP's local ACK timeout,
     * 0..31 (4.096 us times 2 to its power), instead of the one the CM derives from the path; RC IDs
     * only. Set before {@link RdmaCmId#resolveRoute}, it also makes the path's packet life time
     * {@code timeout - 1} (Linux since 5.13), which the REQ's local ACK timeout carries.
     */
    ACK_TIMEOUT(3);

    private final int optname;

    RdmaCmOption(int optname) {
        this.optname = optname;
    }

    /**
     * The option's {@code optname} in rdma_cma.h.
     *
     * @return the optname
     */
    public int optname() {
        return optname;
    }
}
