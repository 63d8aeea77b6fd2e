package io.jroce.rnic.core;

/** A receive queue entry: the buffers one incoming SEND (or WRITE with immediate) completes into. */
final class RecvWqe {
    final SgList sg;
    long wrId;

    RecvWqe(int maxSge) {
        sg = new SgList(maxSge);
    }

    /** Becomes a copy of {@code o} (taken off a shared receive queue whose slot may be reused). */
    void copyFrom(RecvWqe o) {
        sg.copyFrom(o.sg);
        wrId = o.wrId;
    }
}
