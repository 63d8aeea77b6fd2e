package io.jroce.verbs;

/** A queue pair (ibv_qp). Post from any thread; each queue keeps the order of its posts. */
public interface QueuePair extends AutoCloseable {
    /**
     * The QP number the peer addresses this QP by.
     *
     * @return the 24-bit QP number
     */
    int qpNum();

    /**
     * The QP's transport service type, fixed at creation.
     *
     * @return RC, UC or UD
     */
    QpType type();

    /**
     * The QP's current state.
     *
     * @return the state
     */
    QpState state();

    /**
     * The protection domain the QP was created in.
     *
     * @return the protection domain
     */
    ProtectionDomain protectionDomain();

    /**
     * Moves the QP to {@code attrs.state()} (or changes attributes in the current state), checking
     * the attributes the IBTA state table (IBTA Vol. 1 11.2.5.2, ib_modify_qp_is_ok) requires and
     * allows for that transition.
     *
     * @param attrs the target state and the attributes its {@link QpAttrMask} names
     * @throws InvalidStateException     the transition is not legal from the current state
     * @throws InvalidAttributeException an attribute is missing, not allowed, or out of range
     */
    void modify(QpAttributes attrs);

    /**
     * Every attribute as it stands now (ibv_query_qp).
     *
     * @return a new snapshot of the attributes
     */
    QpAttributes query();

    /**
     * Posts a send work request (ibv_post_send); the request is copied, so it may be reused.
     *
     * @param wr the request
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
     * @param window   a type 1 window of this QP's protection domain
     * @param region   the region the window exposes part of
     * @param address  the first byte of the window, inside the region
     * @param length   the window's length in bytes, 0 to unbind
     * @param access   the remote {@link AccessFlags} the window grants
     * @param wrId     the identifier of the bind's completion
     * @param signaled whether the bind produces a completion on success
     * @return the window's new rkey, valid once the bind completes
     */
    int bindMemoryWindow(MemoryWindow window, MemoryRegion region, long address, long length, int access, long wrId,
                         boolean signaled);

    /**
     * Posts a receive work request (ibv_post_recv); allowed from INIT on. The request is copied, so
     * it may be reused.
     *
     * @param wr the request
     * @throws InvalidStateException the QP is in RESET, or uses a shared receive queue
     * @throws QueueFullException    max_recv_wr receives are outstanding
     */
    void postRecv(ReceiveWorkRequest wr);

    /**
     * Attaches this UD QP to the multicast group {@code mgid} (ibv_attach_mcast): UD sends to QPN
     * 0xFFFFFF with destination GID {@code mgid} are then delivered to it, a copy to each attached QP
     * of the device, each checked against its own Q_Key. On RoCE the group is an IP multicast group
     * and {@code mlid} is not used (any 16-bit value). Attaching a QP twice to a group does nothing.
     *
     * @param mgid the group's multicast GID
     * @param mlid the group's multicast LID, unused on RoCE
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
     * @param mgid the group's multicast GID
     * @param mlid the group's multicast LID, unused on RoCE
     * @throws InvalidAttributeException the QP is not attached to {@code mgid}
     * @throws ResourceClosedException   the QP is destroyed
     */
    void detachMcast(Gid mgid, int mlid);

    /** Destroys the QP (ibv_destroy_qp); outstanding work is discarded. */
    @Override
    void close();
}
