package io.jroce.testsupport;

import java.util.concurrent.TimeUnit;

/**
 * The bound on a test's wait for another party to come up (a server that listens, an address the
 * host binds): a generous stretch of wall-clock time, never a number of attempts. A count of
 * attempts that takes five seconds on a quiet machine runs out on a loaded one, where a server's
 * start-up alone can take longer; the guard only stops a wait for something that never comes.
 *
 * <pre>{@code
 * for (StartupGuard guard = StartupGuard.start(); guard.waiting(); Thread.sleep(50)) { ... }
 * }</pre>
 */
public final class StartupGuard {
    /** How long a party may take to come up: two minutes, as the twins' own guard. */
    public static final long SECONDS = 120;

    private final long deadlineNs;
    private boolean first = true;

    private StartupGuard(long seconds) {
        this.deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    }

    /** A guard of {@link #SECONDS} from now. */
    public static StartupGuard start() {
        return new StartupGuard(SECONDS);
    }

    /** A guard of {@code seconds} from now. */
    public static StartupGuard ofSeconds(long seconds) {
        return new StartupGuard(seconds);
    }

    /** True for the first attempt, and then while the time is not up. */
    public boolean waiting() {
        if (first) {
            first = false;
            return true;
        }
        return System.nanoTime() - deadlineNs < 0;
    }
}
