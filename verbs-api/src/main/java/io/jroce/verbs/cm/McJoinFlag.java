package io.jroce.verbs.cm;

/**
 * How {@link RdmaCmId#joinMulticast(java.net.InetSocketAddress, McJoinFlag)} joins a group: the
 * {@code join_flags} of librdmacm's {@code rdma_join_multicast_ex} (rdma_cma.h).
 */
public enum McJoinFlag {
    /** {@code RDMA_MC_JOIN_FLAG_FULLMEMBER}: send to and receive from the group. */
    FULLMEMBER(0),
    /**
     * {@code RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER}: send to the group only. The ID's QP is not
     * attached (librdmacm's {@code ucma_process_join}), and on RoCE the kernel sends no IGMP report
     * ({@code cma_iboe_join_multicast}): the device takes no group membership, so nothing sent to the
     * group reaches it.
     */
    SENDONLY_FULLMEMBER(1);

    private final int value;

    McJoinFlag(int value) {
        this.value = value;
    }

    /**
     * The flag's value in rdma_cma.h.
     *
     * @return the value
     */
    public int value() {
        return value;
    }
}
