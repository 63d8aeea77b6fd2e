package io.jroce.rnic.core;

import java.util.concurrent.Callable;

/**
 * The single thread that owns an RNIC's protocol state, and the clock it reads. Verbs calls from
 * application threads reach that state only through this interface.
 */
public interface IoContext {
    /**
     * True when the caller is the I/O thread.
     *
     * @return whether the calling thread is the I/O thread
     */
    boolean inIoThread();

    /**
     * Runs {@code task} on the I/O thread soon; never blocks.
     *
     * @param task what to run
     */
    void execute(Runnable task);

    /**
     * Runs {@code task} on the I/O thread and waits for its result, rethrowing what it throws.
     *
     * @param <T> the result's type
     * @param task what to run
     * @return what {@code task} returned
     */
    <T> T call(Callable<T> task);

    /**
     * The time in nanoseconds (monotonic), as the I/O thread sees it.
     *
     * @return the time in nanoseconds
     */
    long nowNs();

    /**
     * Lets the calling application thread do the device's pending work itself, when the context
     * allows it (the invoker progress mode): returns how much it did. A context with an I/O
     * thread of its own does nothing here and returns 0.
     *
     * @return the work done, 0 when none
     */
    default int progress() {
        return 0;
    }

    /**
     * The calling application thread is about to block waiting for the device (a blocking poll,
     * a completion channel, the RDMA CM): a context whose application threads progress the device
     * hands it to its fallback thread at once. Nothing for a context with an I/O thread of its own.
     */
    default void handOver() {
    }
}
