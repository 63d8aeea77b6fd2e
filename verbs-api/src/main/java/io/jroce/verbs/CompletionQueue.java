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

    /** Destroys the CQ; refused with {@link ResourceBusyException} while a QP uses it. */
    @Override
    void close();
}
