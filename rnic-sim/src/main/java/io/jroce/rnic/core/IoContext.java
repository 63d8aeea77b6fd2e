package io.jroce.rnic.core;

import java.util.concurrent.Callable;

/**
 * The single thread that owns an RNIC's protocol state, and the clock it reads. Verbs calls from
 * application threads reach that state only through this interface.
 */
public interface IoContext {
    /** True when the caller is the I/O thread. */
    boolean inIoThread();

    /** Runs {@code task} on the I/O thread soon; never blocks. */
    void execute(Runnable task);

    /** Runs {@code task} on the I/O thread and waits for its result, rethrowing what it throws. */
    <T> T call(Callable<T> task);

    /** The time in nanoseconds (monotonic), as the I/O thread sees it. */
    long nowNs();
}
