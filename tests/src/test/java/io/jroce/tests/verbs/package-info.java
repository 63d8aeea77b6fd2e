/**
 * Verbs-level validation: what a post, a registration or a close must refuse and with which
 * exception (invalid keys, SGEs outside their region, too many SGEs, full queues, heap buffers,
 * inconsistent access flags, busy and closed resources), and the device and port attributes a
 * freshly opened device reports.
 */
package io.jroce.tests.verbs;
