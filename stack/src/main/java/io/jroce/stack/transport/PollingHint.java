package io.jroce.stack.transport;

/**
 * Tells a transport's I/O thread that an application thread is busy polling for completions right
 * now, so that the I/O thread stays awake instead of sleeping in epoll: the work that thread posts
 * next is then picked up without a wake-up (an eventfd write and a context switch on both sides).
 *
 * <p>Application threads only count their empty polls; they read no clock. The I/O thread asks
 * {@link #applicationPolling(long)} with its own time: a count that moved since it last asked
 * starts a window of {@link #WINDOW_NS}, and it keeps polling its sockets until the window ends.
 * The window thus starts when the I/O thread notices the poll, at its next turn (at once while it
 * spins, on its next wake-up while it sleeps).
 */
public final class PollingHint {
    /** How long after the last empty poll the I/O thread keeps polling its sockets instead of sleeping. */
    public static final long WINDOW_NS = 100_000;

    private final boolean always;
    /**
     * Empty polls so far. Incremented without a CAS by any application thread: two threads may
     * write the same value, which only costs a window when no later poll follows (the application
     * then stopped polling anyway).
     */
    private volatile long emptyPolls;
    /** The count at the I/O thread's last look. I/O thread only. */
    private long seenEmptyPolls;
    /** When the I/O thread last saw the count move. I/O thread only. */
    private long lastChangeNs;
    private boolean seenAny;

    /**
     * A hint that says "polling" only while an application thread polls.
     */
    public PollingHint() {
        this(false);
    }

    private PollingHint(boolean always) {
        this.always = always;
    }

    /**
     * A hint that always says "polling": the event loop never sleeps (for baselines and experiments).
     *
     * @return the hint
     */
    public static PollingHint always() {
        return new PollingHint(true);
    }

    /** An application thread polled and found nothing: it is waiting for the I/O thread. Any thread. */
    public void emptyPoll() {
        emptyPolls = emptyPolls + 1;
    }

    /**
     * True while an application thread polled within the window before {@code nowNs}, the I/O
     * thread's monotonic time in nanoseconds. I/O thread only.
     *
     * @param nowNs the I/O thread's time
     * @return whether the I/O thread should keep polling
     */
    public boolean applicationPolling(long nowNs) {
        if (always) {
            return true;
        }
        long count = emptyPolls;
        if (count != seenEmptyPolls) {
            seenEmptyPolls = count;
            lastChangeNs = nowNs;
            seenAny = true;
        }
        return seenAny && nowNs - lastChangeNs < WINDOW_NS;
    }
}
