/**
 * The RNIC core. It owns no socket, thread or clock: packets and {@code nowNs} come in through
 * {@link io.jroce.rnic.core.RnicEngine}, packets leave through a
 * {@link io.jroce.stack.transport.RoceTransport}, and protocol state is touched only on the one
 * I/O thread that an {@link io.jroce.rnic.core.IoContext} names.
 *
 * <p>Two layers, kept apart at the class level (CoreStructureTest checks it with jdeps):
 * <ul>
 *   <li>the transport engine: {@link io.jroce.rnic.core.RnicEngine} (dispatcher, run queue, timers),
 *       one {@link io.jroce.rnic.core.QpTransport} per QP holding its peers
 *       {@link io.jroce.rnic.core.Requester}, {@link io.jroce.rnic.core.Completer} and
 *       {@link io.jroce.rnic.core.Responder}, their per-QP state ({@link io.jroce.rnic.core.QpContext},
 *       {@link io.jroce.rnic.core.SendQueueState}), and the device-wide services they are built with
 *       ({@link io.jroce.rnic.core.RnicContext}: counters, key table, packet sender, transmit budget,
 *       scheduler, {@link io.jroce.rnic.core.ResponsePacer}). It sees resources only through narrow interfaces:
 *       {@link io.jroce.rnic.core.CompletionSink}, {@link io.jroce.rnic.core.ReceiveQueue},
 *       {@link io.jroce.rnic.core.RegionAccess}, {@link io.jroce.rnic.core.WindowAccess},
 *       {@link io.jroce.rnic.core.UdDestination}; and the device's QP1, {@link io.jroce.rnic.core.Gsi}, to
 *       which the engine hands every packet for QPN 1, with {@link io.jroce.rnic.core.MadHandler}: the
 *       connection manager's seam;</li>
 *   <li>the verbs resources: {@link io.jroce.rnic.core.SoftDevice}, PDs, MRs, MWs, CQs, QPs, SRQs,
 *       AHs, completion channels and the checks of verbs calls. They build and drive the engine
 *       layer, never the other way round.</li>
 * </ul>
 * One package rather than two: the resources fill the engines' per-QP state and WQEs directly on
 * posting and Modify QP, which across packages would need public mutable fields.
 *
 * <p>Internal: not part of jroce's API, so it may change in any release (docs/versioning.md).
 */
package io.jroce.rnic.core;
