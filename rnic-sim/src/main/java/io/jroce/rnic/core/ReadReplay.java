package io.jroce.rnic.core;

import io.jroce.stack.wire.Psn;

/**
 * The RDMA READ requests the responder recently executed: a duplicate READ is executed again only
 * when it lies within one of them (IBTA 9.7.5.1.3), so a request with an old PSN that was never
 * received reads nothing (as rxe's responder resources, which it searches by PSN). A requester has
 * at most max_rd_atomic READs and atomics outstanding, so the last {@link #SIZE} READs hold every
 * READ it may resend. I/O thread only; preallocated.
 */
final class ReadReplay {
    static final int SIZE = DeviceLimits.MAX_QP_RD_ATOM;
    private final int[] firstPsn = new int[SIZE];
    private final int[] lastPsn = new int[SIZE];
    private final long[] address = new long[SIZE];
    private final long[] length = new long[SIZE];
    private final int[] rkey = new int[SIZE];
    private final boolean[] valid = new boolean[SIZE];
    private int next;

    /** A READ of {@code len} bytes at {@code va} under {@code key}, answered with PSNs {@code first}..{@code last}. */
    void record(int first, int last, long va, long len, int key) {
        firstPsn[next] = first;
        lastPsn[next] = last;
        address[next] = va;
        length[next] = len;
        rkey[next] = key;
        valid[next] = true;
        next = (next + 1) % SIZE;
    }

    /**
     * Whether a READ request at {@code psn} for {@code len} bytes at {@code va} under {@code key},
     * answered with {@code packets} PSNs, asks again for part of an executed READ: the PSNs and the
     * bytes must lie within that READ's, under the same key (as rxe checks a duplicate READ).
     */
    boolean matches(int psn, int packets, long va, long len, int key) {
        int last = Psn.add(psn, packets - 1);
        for (int i = 0; i < SIZE; i++) {
            if (valid[i] && Psn.compare(psn, firstPsn[i]) >= 0 && Psn.compare(last, lastPsn[i]) <= 0
                && key == rkey[i] && va >= address[i] && len <= length[i] && va - address[i] <= length[i] - len) {
                return true;
            }
        }
        return false;
    }

    void clear() {
        java.util.Arrays.fill(valid, false);
        next = 0;
    }
}
