/**
 * The InfiniBand Communication Manager (IBTA Vol. 1 chapter 12) for RC connections, as the Linux
 * kernel's {@code drivers/infiniband/core/cm.c} runs it under RDMA CM ({@code cma.c}): one
 * {@link io.jroce.rnic.cm.ConnectionManager} per device, registered as the handler of the device's
 * GSI (QP1), keeps a {@link io.jroce.rnic.cm.CmConnection} per connection through the states of
 * {@link io.jroce.rnic.cm.CmState}, sends and retransmits REQ, REP and DREQ, answers repeats as the
 * kernel does, and reports to its consumer through {@link io.jroce.rnic.cm.CmEvents}. It is I/O-free
 * like the rest of the core: MADs and {@code nowNs} come in from the GSI, MADs leave through it.
 * It does not touch QPs: the consumer moves its QP with the QPN and PSN the events carry.
 * The manager's parts: {@code CmEstablishment} (REQ, REP, RTU, REJ, MRA received),
 * {@code CmConnectionRelease} (DREQ, DREP, TimeWait), {@code CmSidr} (UD service ID resolution),
 * {@code CmConnectionTable} (the lookups), {@code CmTimerQueue} and {@code CmMessageSender}.
 * See docs/cm-protocol.md.
 *
 * <p>Internal: not part of jroce's API, so it may change in any release (docs/versioning.md).
 */
package io.jroce.rnic.cm;
