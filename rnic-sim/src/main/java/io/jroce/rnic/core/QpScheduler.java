package io.jroce.rnic.core;

/** Runs a QP's requester soon on the I/O thread (its work, or its flush in ERR). */
interface QpScheduler {
    void schedule(QpContext qp);
}
