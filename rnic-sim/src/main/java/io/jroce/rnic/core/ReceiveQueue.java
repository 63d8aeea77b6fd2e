package io.jroce.rnic.core;

/** A source of receive WQEs other than the QP's own queue: a shared receive queue. I/O thread. */
interface ReceiveQueue {
    /** The WQE the next message goes to, or null when none is posted. */
    RecvWqe head();

    /** Retires the WQE {@link #head()} returned. */
    void pop();
}
