package io.jroce.tests.support;

import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.WorkCompletion;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Bounded waits for completions. The timeout only guards against hangs: a correct RNIC completes
 * a loopback operation in milliseconds, so no test depends on it to pass.
 */
public final class Completions {
    /** How long any single wait may block before the test is declared hung. */
    public static final long TIMEOUT_SECONDS = 30;

    private Completions() {
    }

    /** Waits for the next completion on {@code cq}; fails with {@code diagnostics} if none comes. */
    public static WorkCompletion await(CompletionQueue cq, String what, Supplier<String> diagnostics) {
        WorkCompletion wc = new WorkCompletion();
        boolean got;
        try {
            got = cq.pollBlocking(wc, TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + what, e);
        }
        if (!got) {
            throw new AssertionError("no completion for " + what + " within " + TIMEOUT_SECONDS + " s; "
                + diagnostics.get());
        }
        return wc;
    }

    /**
     * Fails if {@code cq} holds a completion now. Called only after a later completion that the
     * RNIC must produce after the one that must not exist, so a correct RNIC passes without waiting.
     */
    public static void assertNone(CompletionQueue cq, String what) {
        WorkCompletion wc = new WorkCompletion();
        if (cq.poll(wc)) {
            throw new AssertionError("unexpected completion on " + what + ": " + wc);
        }
    }
}
