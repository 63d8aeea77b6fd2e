package io.jroce.rnic.core;

/**
 * The results of recently executed atomics by PSN, so that a duplicate atomic request is answered
 * with the original value and never executed twice (IBTA 9.7.5.1.3).
 */
final class AtomicReplay {
    private static final int SIZE = DeviceLimits.MAX_QP_RD_ATOM;
    private final int[] psn = new int[SIZE];
    private final long[] original = new long[SIZE];
    private final boolean[] valid = new boolean[SIZE];
    private int next;

    void record(int atomicPsn, long originalValue) {
        psn[next] = atomicPsn;
        original[next] = originalValue;
        valid[next] = true;
        next = (next + 1) % SIZE;
    }

    boolean contains(int atomicPsn) {
        return indexOf(atomicPsn) >= 0;
    }

    long original(int atomicPsn) {
        return original[indexOf(atomicPsn)];
    }

    private int indexOf(int atomicPsn) {
        for (int i = 0; i < SIZE; i++) {
            if (valid[i] && psn[i] == atomicPsn) {
                return i;
            }
        }
        return -1;
    }

    void clear() {
        java.util.Arrays.fill(valid, false);
        next = 0;
    }
}
