package io.jroce.rnic.core;

import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;

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
     * Runs {@code task} on the I/O thread and waits for its result, rethrowing what it throws. The
     * wait does not end at an interrupt of the calling thread, whose interrupt stays set: a verb
     * takes effect or fails for a reason of its own, never half because its caller was cancelled.
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

    /**
     * Whether {@link #nowNs} is a virtual clock that the calling thread drives (the thread that runs
     * a simulated fabric): its blocking wait must then run that clock ({@link #runUntil}) rather
     * than sleep in real time, in which nothing would ever arrive.
     *
     * @return true on a virtual clock the caller drives
     */
    default boolean virtualTime() {
        return false;
    }

    /**
     * On a {@link #virtualTime virtual clock}: runs it until {@code ready} holds or {@code timeoutNs}
     * of its time have passed; true when ready. Throws a typed exception saying why when the caller
     * cannot run it (it is inside the clock's own run).
     *
     * @param ready     what the caller waits for
     * @param timeoutNs how long it waits, in the clock's time
     * @return true when {@code ready} held before the timeout
     */
    default boolean runUntil(BooleanSupplier ready, long timeoutNs) {
        throw new UnsupportedOperationException("this context runs on the real clock");
    }
}
