package io.jroce.verbs;

/**
 * A shared receive queue (ibv_srq): receive WQEs that many QPs of one protection domain draw from,
 * in posting order (IBTA 10.2.9.3).
 */
public interface SharedReceiveQueue extends AutoCloseable {
    /**
     * Posts a receive work request (ibv_post_srq_recv); the request is copied, so it may be reused.
     *
     * @param wr the request
     * @throws QueueFullException the SRQ holds {@link #capacity()} WQEs already
     */
    void postRecv(ReceiveWorkRequest wr);

    /**
     * Arms the limit (ibv_modify_srq with IBV_SRQ_LIMIT): when fewer than {@code srqLimit} WQEs
     * remain, one {@link AsyncEventType#SRQ_LIMIT_REACHED} event is raised and the limit disarms.
     * 0 disarms it.
     *
     * @param srqLimit the limit, 0 to disarm
     */
    void armLimit(int srqLimit);

    /**
     * The armed limit (ibv_query_srq).
     *
     * @return the limit, 0 when none is armed
     */
    int limit();

    /**
     * How many WQEs it can hold.
     *
     * @return max_wr
     */
    int capacity();

    /**
     * How many WQEs wait to be consumed.
     *
     * @return the WQEs posted and not yet consumed
     */
    int available();

    /**
     * The protection domain the SRQ was created in.
     *
     * @return the protection domain
     */
    ProtectionDomain protectionDomain();

    /** Destroys the SRQ; refused with {@link ResourceBusyException} while a QP uses it. */
    @Override
    void close();
}
