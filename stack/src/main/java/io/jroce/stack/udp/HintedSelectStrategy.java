package io.jroce.stack.udp;

import io.jroce.stack.transport.PollingHint;
import io.netty.channel.SelectStrategy;
import io.netty.util.IntSupplier;

/**
 * Netty's default strategy (sleep in epoll when there is no task), except while the application
 * polls for completions ({@link PollingHint}): then the event loop checks its sockets without
 * blocking and yields the CPU between checks, so that a post from the application is taken on
 * the next turn of the loop, without the eventfd wake-up a sleeping loop needs.
 */
final class HintedSelectStrategy implements SelectStrategy {
    private final PollingHint hint;

    HintedSelectStrategy(PollingHint hint) {
        this.hint = hint;
    }

    @Override
    public int calculateStrategy(IntSupplier selectSupplier, boolean hasTasks) throws Exception {
        if (hasTasks) {
            return selectSupplier.get();
        }
        if (hint.applicationPolling(System.nanoTime())) { // the runtime's clock, read on the event loop
            Thread.yield(); // the application thread may need this core to post
            return selectSupplier.get();
        }
        return SelectStrategy.SELECT;
    }
}
