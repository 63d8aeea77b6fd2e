package io.jroce.stack.transport;

/**
 * Tells a transport's I/O thread that an application thread is busy polling for completions right
 * now, so that the I/O thread stays awake instead of sleeping in epoll: the work that thread posts
 * next is then picked up without a wake-up (an eventfd write and a context switch on both sides).
 * Application threads mark each empty poll; the I/O thread asks whether one came within
 * {@link #WINDOW_NS}.
 */
public final class PollingHint {
    /** How long after the last empty poll the I/O thread keeps polling its sockets instead of sleeping. */
    public static final long WINDOW_NS = 100_000;

    private final boolean always;
    private volatile long lastEmptyPollNs = Long.MIN_VALUE / 2;

    public PollingHint() {
        this(false);
    }

    private PollingHint(boolean always) {
        this.always = always;
    }

    /** A hint that always says "polling": the event loop never sleeps (for baselines and experiments). */
    public static PollingHint always() {
        return new PollingHint(true);
    }

    /** An application thread polled and found nothing: it is waiting for the I/O thread. */
    public void emptyPoll() {
        lastEmptyPollNs = System.nanoTime();
    }

    /** True while an application thread polled within the window. */
    public boolean applicationPolling() {
        return always || System.nanoTime() - lastEmptyPollNs < WINDOW_NS;
    }
}
