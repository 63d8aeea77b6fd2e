/**
 * The parts of a completion queue that need no RNIC: a one-producer, many-poller ring of
 * preallocated entries ({@link io.jroce.rnic.cq.CompletionRing}), the arming state of Request
 * Completion Notification ({@link io.jroce.rnic.cq.CompletionArming}) and the threads blocked
 * waiting for an entry ({@link io.jroce.rnic.cq.CompletionWaiters}). The core's CQ composes them
 * with overflow, the completion channel and the CQ's lifecycle. Depends on the verbs API only.
 *
 * <p>Internal: not part of jroce's API, so it may change in any release (docs/versioning.md).
 */
package io.jroce.rnic.cq;
