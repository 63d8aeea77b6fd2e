package io.jroce.rnic.core;

/**
 * Paces the responders' responses, device-wide. RDMA READ responses are never acknowledged, so the
 * requester's ACK-driven {@link TransmitBudget} cannot pace them: one READ of a large region would
 * otherwise keep the I/O thread building responses while every other QP waits. Responders with
 * responses queued ({@link ResponseQueue}) take turns, round robin, {@link #SLICE} packets each,
 * and one turn of the I/O loop sends at most {@link #TURN_QUOTA} response packets; what is left
 * goes out on the next turns, after the I/O loop has read the network and run other work.
 * I/O thread only; nothing is allocated once built.
 */
final class ResponsePacer {
    /** Response packets one turn of the I/O loop may send (the requesters are paced by their budget). */
    static final int TURN_QUOTA = 16;
    /** Response packets one responder sends before the next responder's turn. */
    static final int SLICE = 8;

    /** Responders with responses queued, as a ring (each at most once: {@link Responder#paced}). */
    private final Responder[] ring = new Responder[DeviceLimits.MAX_QP];
    private int head;
    private int size;
    private final Runnable wake;

    /** {@code wake} asks the I/O loop for a turn ({@link #run}) soon. */
    ResponsePacer(Runnable wake) {
        this.wake = wake;
    }

    /** {@code r} has responses queued: it gets turns until they are sent. */
    void add(Responder r) {
        if (!r.paced) {
            r.paced = true;
            ring[(head + size) % ring.length] = r;
            size++;
            wake.run();
        }
    }

    /** Forgets {@code r} (its QP is destroyed). */
    void remove(Responder r) {
        if (!r.paced) {
            return;
        }
        int kept = 0;
        for (int n = 0; n < size; n++) {
            Responder x = ring[(head + n) % ring.length];
            if (x != r) {
                ring[(head + kept++) % ring.length] = x;
            }
        }
        for (int n = kept; n < size; n++) {
            ring[(head + n) % ring.length] = null;
        }
        size = kept;
        r.paced = false;
    }

    /** Responders waiting for a turn. */
    int waiting() {
        return size;
    }

    /**
     * One turn: responders send round robin until {@code quota} packets are sent or none has
     * anything left. Returns true (and has asked for another turn) if responses remain.
     */
    boolean run(int quota) {
        int left = quota;
        while (size > 0 && left > 0) {
            Responder r = ring[head];
            ring[head] = null;
            head = (head + 1) % ring.length;
            size--;
            r.paced = false;
            left -= r.sendResponses(Math.min(SLICE, left));
            if (r.hasResponses()) {
                add(r);
            }
        }
        if (size > 0) {
            wake.run();
            return true;
        }
        return false;
    }
}
