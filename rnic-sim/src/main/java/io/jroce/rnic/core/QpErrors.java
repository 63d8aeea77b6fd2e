package io.jroce.rnic.core;

/**
 * How an engine moves its QP to ERR after a fatal completion error or a class-2 NAK (IBTA 10.3.1):
 * every queue is flushed and QP_FATAL raised. Implemented by {@link QpTransport}, which owns all
 * three engines of the QP.
 */
interface QpErrors {
    void enterError();
}
