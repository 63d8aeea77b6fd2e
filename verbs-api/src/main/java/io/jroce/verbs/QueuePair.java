package io.jroce.verbs;

/** A queue pair (ibv_qp). Post from any thread; each queue keeps the order of its posts. */
public interface QueuePair extends AutoCloseable {
    /** The 24-bit QP number. */
    int qpNum();

    QpType type();

    QpState state();

    ProtectionDomain protectionDomain();

    /**
     * Moves the QP to {@code attrs.state()} (or changes attributes in the current state), checking
     * the attributes the IBTA state table (IBTA Vol. 1 11.2.5.2, ib_modify_qp_is_ok) requires and
     * allows for that transition.
     *
     * @throws InvalidStateException     the transition is not legal from the current state
     * @throws InvalidAttributeException an attribute is missing, not allowed, or out of range
     */
    void modify(QpAttributes attrs);

    /** Every attribute as it stands now (ibv_query_qp). */
    QpAttributes query();

    /**
     * Posts a send work request (ibv_post_send).
     *
     * @throws InvalidStateException     the QP is in RESET or INIT (or RTR), where posting sends is not allowed
     * @throws QueueFullException        max_send_wr work requests are outstanding
     * @throws InvalidKeyException       an lkey is unknown
     * @throws AccessViolationException  an SGE lies outside its MR or the MR lacks local access
     * @throws InvalidAttributeException the request does not fit the QP (too many SGEs, atomic not 8 bytes, ...)
     */
    void postSend(SendWorkRequest wr);

    /**
     * Binds a type 1 memory window to {@code [address, address + length)} of {@code region} with
     * remote {@code access} (ibv_bind_mw): posted on the send queue, completed in order with
     * opcode BIND_MW. A length of 0 unbinds it. The region must have been registered with MW_BIND.
     *
     * @return the window's new rkey, valid once the bind completes
     */
    int bindMemoryWindow(MemoryWindow window, MemoryRegion region, long address, long length, int access, long wrId,
                         boolean signaled);

    /** Posts a receive work request (ibv_post_recv); allowed from INIT on. */
    void postRecv(ReceiveWorkRequest wr);

    /**
     * Attaches this UD QP to the multicast group {@code mgid} (ibv_attach_mcast): UD sends to QPN
     * 0xFFFFFF with destination GID {@code mgid} are then delivered to it, a copy to each attached QP
     * of the device, each checked against its own Q_Key. On RoCE the group is an IP multicast group
     * and {@code mlid} is not used (any 16-bit value). Attaching a QP twice to a group does nothing.
     *
     * @throws InvalidAttributeException the QP is not UD, {@code mgid} is not a multicast GID, or
     *                                   {@code mlid} is not 16 bits
     * @throws ResourceLimitException    the device's max_mcast_grp groups, the group's
     *                                   max_mcast_qp_attach QPs or the device's
     *                                   max_total_mcast_qp_attach attachments are reached
     * @throws ResourceClosedException   the QP is destroyed
     * @throws TransportException        the network refused to join the group
     */
    void attachMcast(Gid mgid, int mlid);

    /**
     * Detaches this QP from the multicast group {@code mgid} (ibv_detach_mcast); the device leaves
     * the group when its last QP detaches.
     *
     * @throws InvalidAttributeException the QP is not attached to {@code mgid}
     * @throws ResourceClosedException   the QP is destroyed
     */
    void detachMcast(Gid mgid, int mlid);

    /** Destroys the QP (ibv_destroy_qp); outstanding work is discarded. */
    @Override
    void close();
}
