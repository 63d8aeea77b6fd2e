package io.jroce.stack.fault;

/**
 * Runs a task later on the transport's I/O thread, for the packets a {@link FaultInjectingTransport}
 * delays or holds back (on UDP: the Netty event loop's {@code schedule}).
 */
@FunctionalInterface
public interface DelayScheduler {
    /**
     * Runs {@code task} after {@code delayNs}.
     *
     * @param delayNs how long from now, in nanoseconds
     * @param task what to run
     */
    void schedule(long delayNs, Runnable task);
}
