package io.jroce.tools.perftest;

import java.util.Objects;

/**
 * Two points inside the measured loop of a client twin, for a caller that measures what the run
 * does between them (the test that counts the bytes allocated per operation): told on the loop's
 * own thread when the client is about to post operation {@code first} and operation
 * {@code second} (counting from 0, over all QPs), so the span holds {@code second - first}
 * operations of the steady state and none of the set-up or the report. Nothing is installed
 * unless a test does; then each post costs one comparison. The server's loops never mark.
 */
public final class SteadyStateMarks {
    /** Told at each mark, on the client's loop thread. */
    public interface Listener {
        /**
         * A mark was reached.
         *
         * @param mark 0 at the first point, 1 at the second
         */
        void reached(int mark);
    }

    private static final SteadyStateMarks NONE = new SteadyStateMarks(-1, -1, null);
    private static volatile SteadyStateMarks installed = NONE;

    private final long first;
    private final long second;
    private final Listener listener;
    /** The operation whose post fires the next mark; -1 when none is left. */
    private long next;

    private SteadyStateMarks(long first, long second, Listener listener) {
        this.first = first;
        this.second = second;
        this.listener = listener;
        this.next = first;
    }

    /**
     * Marks the next client run of this JVM at operations {@code first} and {@code second}; once
     * only: the run that takes the marks removes them.
     *
     * @param first the operation of the first mark, 0 or more
     * @param second the operation of the second mark, after the first
     * @param listener told at each mark
     * @throws IllegalArgumentException the marks are not {@code 0 <= first < second}
     */
    public static void install(long first, long second, Listener listener) {
        if (first < 0 || second <= first) {
            throw new IllegalArgumentException("marks must be 0 <= first < second: " + first + ", " + second);
        }
        installed = new SteadyStateMarks(first, second, Objects.requireNonNull(listener, "listener"));
    }

    /** The marks of a loop that starts now: the installed ones for a client (taken), none otherwise. */
    static synchronized SteadyStateMarks take(boolean client) {
        SteadyStateMarks m = installed;
        if (!client || m == NONE) {
            return NONE;
        }
        installed = NONE;
        return m;
    }

    /** Called before posting operation {@code operation} (0-based). */
    void posting(long operation) {
        if (operation == next) {
            fire();
        }
    }

    private void fire() {
        int mark = next == first ? 0 : 1;
        next = mark == 0 ? second : -1;
        listener.reached(mark);
    }
}
