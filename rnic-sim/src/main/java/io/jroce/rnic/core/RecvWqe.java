package io.jroce.rnic.core;

/** A receive queue entry: the buffers one incoming SEND (or WRITE with immediate) completes into. */
final class RecvWqe {
    final SgList sg;
    long wrId;

    RecvWqe(int maxSge) {
        sg = new SgList(maxSge);
    }
}
