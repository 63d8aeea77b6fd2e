package io.jroce.verbs;

import java.util.concurrent.TimeUnit;

/** A completion queue (ibv_cq). Poll from any thread. */
public interface CompletionQueue extends AutoCloseable {
    /** Number of entries it can hold. */
    int capacity();

    /**
     * Moves up to {@code wcs.length} completions into {@code wcs} (ibv_poll_cq).
     *
     * @return how many were filled, 0 when the queue is empty
     */
    int poll(WorkCompletion[] wcs);

    /** Polls one completion into {@code wc}; false when the queue is empty. */
    boolean poll(WorkCompletion wc);

    /**
     * Waits until a completion is available or the timeout passes, then polls it into {@code wc}.
     *
     * @return true if {@code wc} was filled
     */
    boolean pollBlocking(WorkCompletion wc, long timeout, TimeUnit unit) throws InterruptedException;

    /**
     * Arms the CQ (ibv_req_notify_cq): the next completion (with {@code solicitedOnly}, the next
     * receive completion of a message with the solicited-event bit, or any error completion)
     * raises one event on the CQ's {@link CompletionChannel}.
     *
     * @throws InvalidStateException the CQ was created without a completion channel
     */
    void requestNotification(boolean solicitedOnly);

    /** Acknowledges {@code count} events taken from the channel (ibv_ack_cq_events). */
    void ackEvents(int count);

    /** The channel this CQ reports events to, or null. */
    CompletionChannel channel();

    /**
     * Destroys the CQ; refused with {@link ResourceBusyException} while a QP uses it or while
     * events taken from its channel are not acknowledged.
     */
    @Override
    void close();
}
