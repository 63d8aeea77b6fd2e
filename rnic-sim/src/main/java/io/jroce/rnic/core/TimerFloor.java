package io.jroce.rnic.core;

/**
 * The earliest instant at which any QP's ACK timer or RNR wait of one device can be due, so that
 * a timer tick before it visits no QP: with many QPs, visiting each one every tick cost the
 * device's thread a sixth of its time at 1,024 QPs (docs/benchmarks.md). Each arming lowers the
 * floor ({@link #note}); nothing raises it when an ACK restarts a timer later, so it may be early.
 * The tick that reaches it visits every QP once and sets it again from the timers still armed
 * ({@link #clear}, then {@link #note} for each): one visit of each QP per timeout, not per tick.
 * I/O thread only.
 */
final class TimerFloor {
    private long floorNs;
    private boolean set;

    /** A timer of some QP is due at {@code deadlineNs}. */
    void note(long deadlineNs) {
        if (!set || deadlineNs - floorNs < 0) {
            floorNs = deadlineNs;
            set = true;
        }
    }

    /** True when some timer may be due at {@code nowNs}. */
    boolean due(long nowNs) {
        return set && nowNs - floorNs >= 0;
    }

    /** Before the QPs are visited: each notes again what stays armed. */
    void clear() {
        set = false;
    }
}
