package io.jroce.verbs;

/**
 * A shared receive queue (ibv_srq): receive WQEs that many QPs of one protection domain draw from,
 * in posting order (IBTA 10.2.9.3).
 */
public interface SharedReceiveQueue extends AutoCloseable {
    /** Posts a receive work request (ibv_post_srq_recv). */
    void postRecv(ReceiveWorkRequest wr);

    /**
     * Arms the limit (ibv_modify_srq with IBV_SRQ_LIMIT): when fewer than {@code srqLimit} WQEs
     * remain, one {@link AsyncEventType#SRQ_LIMIT_REACHED} event is raised and the limit disarms.
     * 0 disarms it.
     */
    void armLimit(int srqLimit);

    /** The armed limit, 0 when none (ibv_query_srq). */
    int limit();

    /** How many WQEs it can hold (max_wr). */
    int capacity();

    /** WQEs posted and not yet consumed. */
    int available();

    ProtectionDomain protectionDomain();

    /** Destroys the SRQ; refused with {@link ResourceBusyException} while a QP uses it. */
    @Override
    void close();
}
