package io.jroce.stack.fault;

/**
 * Runs a task later on the transport's I/O thread, for the packets a {@link FaultInjectingTransport}
 * delays or holds back (on UDP: the Netty event loop's {@code schedule}).
 */
@FunctionalInterface
public interface DelayScheduler {
    void schedule(long delayNs, Runnable task);
}
