/**
 * {@code jroce rc_pingpong}, {@code uc_pingpong}, {@code ud_pingpong} and {@code srq_pingpong}:
 * twins of rdma-core's {@code ibv_*_pingpong} (v44) that talk to the real ones: the same options,
 * the same TCP exchange of QPN, PSN and GID, the same queue pair attributes and the same ping-pong
 * of SENDs, so either side can be jroce or Linux rxe. One piece of code serves the four;
 * {@link io.jroce.tools.pingpong.PingpongTool} says where they differ.
 *
 * <p>Internal: the tools are an application, whose command lines and output are what they promise;
 * their classes are not API and may change in any release (docs/versioning.md).
 */
package io.jroce.tools.pingpong;
