/**
 * {@code jroce devinfo}: opens each jroce device (or the one {@code -d} names) and prints it
 * line for line as rdma-core's {@code ibv_devinfo} (and {@code -v}) prints an rxe device; the
 * counters, which ibv_devinfo has no section for, under {@code -c}.
 *
 * <p>Internal: the tools are an application, whose command lines and output are what they promise;
 * their classes are not API and may change in any release (docs/versioning.md).
 */
package io.jroce.tools.devinfo;
