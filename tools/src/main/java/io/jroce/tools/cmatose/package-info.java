/**
 * {@code jroce ucmatose}: the twin of librdmacm's cmatose example (rdma-core v44,
 * {@code librdmacm/examples/cmatose.c}, installed as ucmatose): several RC connections through the
 * RDMA CM, each side sending -C messages of -S bytes on each, with its output and exit status.
 *
 * <p>Internal: the tools are an application, whose command lines and output are what they promise;
 * their classes are not API and may change in any release (docs/versioning.md).
 */
package io.jroce.tools.cmatose;
