/**
 * {@code jroce devinfo}: opens a jroce device and prints it in the layout of rdma-core's
 * {@code ibv_devinfo}, with the GID table and the counters under {@code -v}.
 *
 * <p>Internal: the tools are an application, whose command lines and output are what they promise;
 * their classes are not API and may change in any release (docs/versioning.md).
 */
package io.jroce.tools.devinfo;
