package io.jroce.verbs;

import java.util.concurrent.TimeUnit;

/** A completion queue (ibv_cq). Poll from any thread. */
public interface CompletionQueue extends AutoCloseable {
    /**
     * How many completions it can hold.
     *
     * @return the number of entries
     */
    int capacity();

    /**
     * Moves up to {@code wcs.length} completions into {@code wcs} (ibv_poll_cq).
     *
     * @param wcs where the completions are written, from index 0
     * @return how many were filled, 0 when the queue is empty
     */
    int poll(WorkCompletion[] wcs);

    /**
     * Polls one completion.
     *
     * @param wc where the completion is written
     * @return true if {@code wc} was filled, false when the queue is empty
     */
    boolean poll(WorkCompletion wc);

    /**
     * Waits until a completion is available or the timeout passes, then polls it into {@code wc}.
     *
     * @param wc      where the completion is written
     * @param timeout how long to wait at most
     * @param unit    the unit of {@code timeout}
     * @return true if {@code wc} was filled
     * @throws InterruptedException the waiting thread was interrupted
     */
    boolean pollBlocking(WorkCompletion wc, long timeout, TimeUnit unit) throws InterruptedException;

    /**
     * Arms the CQ (ibv_req_notify_cq): the next completion (with {@code solicitedOnly}, the next
     * receive completion of a message with the solicited-event bit, or any error completion)
     * raises one event on the CQ's {@link CompletionChannel}.
     *
     * @param solicitedOnly only a solicited receive or an error raises the event
     * @throws InvalidStateException the CQ was created without a completion channel
     */
    void requestNotification(boolean solicitedOnly);

    /**
     * Acknowledges events taken from the channel (ibv_ack_cq_events).
     *
     * @param count how many events
     */
    void ackEvents(int count);

    /**
     * The channel this CQ reports events to.
     *
     * @return the channel, or null when it was created without one
     */
    CompletionChannel channel();

    /**
     * Destroys the CQ; refused with {@link ResourceBusyException} while a QP uses it or while
     * events taken from its channel are not acknowledged.
     */
    @Override
    void close();
}
