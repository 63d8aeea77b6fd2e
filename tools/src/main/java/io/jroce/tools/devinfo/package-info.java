/**
 * {@code jroce devinfo}: opens a jroce device and prints it in the layout of rdma-core's
 * {@code ibv_devinfo}, with the GID table and the counters under {@code -v}.
 */
package io.jroce.tools.devinfo;
