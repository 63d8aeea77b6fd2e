/**
 * The RNIC core: verbs resources (PD, MR, CQ, QP), the QP state machine, and the RC requester,
 * responder and completer. It owns no socket, thread or clock: packets and {@code nowNs} come in
 * through {@link io.jroce.rnic.core.RnicEngine}, packets leave through a
 * {@link io.jroce.stack.transport.RoceTransport}, and protocol state is touched only on the one
 * I/O thread that an {@link io.jroce.rnic.core.IoContext} names.
 */
package io.jroce.rnic.core;
