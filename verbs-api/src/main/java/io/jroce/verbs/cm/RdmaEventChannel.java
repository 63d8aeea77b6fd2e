package io.jroce.verbs.cm;

import java.util.concurrent.TimeUnit;

/**
 * {@code struct rdma_event_channel} (rdma_cma.h): the queue of the events of the IDs created on it.
 * Events are queued by the devices' I/O threads and taken by the application's.
 */
public interface RdmaEventChannel extends AutoCloseable {
    /**
     * {@code rdma_create_id}: a new ID whose events this channel delivers.
     *
     * @param portSpace TCP for RC connections, UDP for UD services
     * @return the ID, bound to nothing yet
     */
    RdmaCmId createId(PortSpace portSpace);

    /**
     * {@code rdma_get_cm_event}: the next event, waiting up to {@code timeout}.
     *
     * @param timeout how long to wait at most
     * @param unit    the unit of {@code timeout}
     * @return the event, or null when none came in time
     * @throws io.jroce.verbs.ResourceClosedException on a closed channel
     * @throws InterruptedException                   the waiting thread was interrupted
     */
    RdmaCmEvent get(long timeout, TimeUnit unit) throws InterruptedException;

    /**
     * The next event if one is queued; never blocks.
     *
     * @return the event, or null when none is queued
     */
    RdmaCmEvent poll();

    /**
     * {@code rdma_destroy_event_channel}.
     *
     * @throws io.jroce.verbs.ResourceBusyException while IDs created on it are open
     */
    @Override
    void close();
}
