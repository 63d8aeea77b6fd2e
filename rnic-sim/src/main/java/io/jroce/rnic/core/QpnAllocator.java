package io.jroce.rnic.core;

import org.agrona.collections.IntHashSet;

/**
 * Hands out QP numbers in order from {@link DeviceLimits#FIRST_QPN}, wrapping after
 * {@link #LAST_QPN}, and skips every number still in use: a new QP must never take a live QP's
 * number, or it would receive that QP's traffic. QP0 and QP1 (below FIRST_QPN) and 0xFFFFFF, the
 * multicast QPN (IB_MULTICAST_QPN in rdma-core), are never handed out. Not thread-safe: the
 * device serialises QP creation and destruction.
 */
final class QpnAllocator {
    /** The last QPN handed out before the wrap; 0xFFFFFF addresses multicast. */
    static final int LAST_QPN = 0xFFFFFE;

    private final IntHashSet live = new IntHashSet();
    private int next = DeviceLimits.FIRST_QPN;

    /** A QPN no live QP has; the caller caps live QPs far below the 2^24 numbers, so one is always free. */
    int allocate() {
        while (true) {
            int qpn = next;
            next = qpn == LAST_QPN ? DeviceLimits.FIRST_QPN : qpn + 1;
            if (live.add(qpn)) {
                return qpn;
            }
        }
    }

    /** Makes {@code qpn} free again once its QP is destroyed. */
    void release(int qpn) {
        live.remove(qpn);
    }

    /** Moves the next candidate (tests: reach the wrap without creating 16M QPs). */
    void nextCandidate(int qpn) {
        if (qpn < DeviceLimits.FIRST_QPN || qpn > LAST_QPN) {
            throw new IllegalArgumentException("QPN 0x" + Integer.toHexString(qpn) + " is reserved");
        }
        next = qpn;
    }
}
