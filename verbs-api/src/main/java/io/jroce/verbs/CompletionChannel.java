package io.jroce.verbs;

import java.util.concurrent.TimeUnit;

/**
 * A completion event channel (ibv_comp_channel): CQs created with it report "a completion arrived"
 * here once {@link CompletionQueue#requestNotification armed}, so a thread can sleep instead of
 * polling.
 */
public interface CompletionChannel extends AutoCloseable {
    /**
     * Waits for the next completion event (ibv_get_cq_event).
     *
     * @param timeout how long to wait at most
     * @param unit    the unit of {@code timeout}
     * @return the CQ that had the event, or null when the timeout passed first
     * @throws InterruptedException the waiting thread was interrupted
     */
    CompletionQueue getEvent(long timeout, TimeUnit unit) throws InterruptedException;

    /** Destroys the channel; refused with {@link ResourceBusyException} while a CQ uses it. */
    @Override
    void close();
}
