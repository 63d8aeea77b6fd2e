package io.jroce.tools.perftest;

/**
 * The states of -D (perftest's catch_alarm driven by alarm()): START for the margin (-f, default a
 * quarter of the duration), SAMPLE until the duration less one margin, STOP_SAMPLE for the last
 * margin, then END. perftest moves on in a signal handler; the loops here ask the clock instead,
 * and the times it switched to and from SAMPLE bound the measured sample.
 */
final class DurationClock {
    enum State { START, SAMPLE, STOP_SAMPLE, END }

    private final long marginNs;
    private final long sampleNs;
    private long startNs;
    /** A receiving side starts its clock at the first message; until then it is in START. */
    private boolean started;
    private State state = State.START;
    private long sampleStart;
    private long sampleEnd;

    DurationClock(int durationSeconds, int marginSeconds) {
        this.marginNs = marginSeconds * 1_000_000_000L;
        this.sampleNs = (durationSeconds - 2L * marginSeconds) * 1_000_000_000L;
    }

    void start() {
        startNs = System.nanoTime();
        started = true;
        state = State.START;
        update(startNs);
    }

    /** The state now. */
    State state() {
        if (started && state != State.END) {
            update(System.nanoTime());
        }
        return state;
    }

    private void update(long now) {
        long t = now - startNs;
        if (state == State.START && t >= marginNs) {
            state = State.SAMPLE;
            sampleStart = now;
        }
        if (state == State.SAMPLE && t >= marginNs + sampleNs) {
            state = State.STOP_SAMPLE;
            sampleEnd = now;
        }
        if (state == State.STOP_SAMPLE && t >= 2 * marginNs + sampleNs) {
            state = State.END;
        }
    }

    long sampleStart() {
        return sampleStart;
    }

    long sampleEnd() {
        return sampleEnd;
    }
}
