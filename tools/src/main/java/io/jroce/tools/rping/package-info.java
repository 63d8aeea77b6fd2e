/**
 * {@code jroce rping}: the twin of librdmacm's rping (rdma-core v44, {@code librdmacm/examples/rping.c}),
 * connected through jroce's RDMA CM ({@code io.jroce.verbs.cm}): the same options, output lines,
 * connection parameters, 16-byte {@code struct rping_rdma_info} messages, RDMA READ and WRITE
 * ping-pong and exit statuses, so either side may be jroce or the real rping on Linux rxe.
 * Its threads are rping's: one takes the CM events, one the CQ's, and the main one (a thread per
 * connection with -P) runs the test loop; they meet in a {@link io.jroce.tools.rping.ControlBlock}.
 *
 * <p>Internal: the tools are an application, whose command lines and output are what they promise;
 * their classes are not API and may change in any release (docs/versioning.md).
 */
package io.jroce.tools.rping;
