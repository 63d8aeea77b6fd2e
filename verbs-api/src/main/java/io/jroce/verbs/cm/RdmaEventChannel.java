package io.jroce.verbs.cm;

import java.util.concurrent.TimeUnit;

/**
 * {@code struct rdma_event_channel} (rdma_cma.h): the queue of the events of the IDs created on it.
 * Events are queued by the devices' I/O threads and taken by the application's.
 */
public interface RdmaEventChannel extends AutoCloseable {
    /** {@code rdma_create_id}: a new ID in {@code portSpace} whose events this channel delivers. */
    RdmaCmId createId(PortSpace portSpace);

    /**
     * {@code rdma_get_cm_event}: the next event, waiting up to {@code timeout}; null when none came.
     *
     * @throws io.jroce.verbs.ResourceClosedException on a closed channel
     */
    RdmaCmEvent get(long timeout, TimeUnit unit) throws InterruptedException;

    /** The next event if one is queued, else null; never blocks. */
    RdmaCmEvent poll();

    /**
     * {@code rdma_destroy_event_channel}.
     *
     * @throws io.jroce.verbs.ResourceBusyException while IDs created on it are open
     */
    @Override
    void close();
}
