/**
 * {@code jroce rc_pingpong}: a twin of rdma-core's {@code ibv_rc_pingpong} (v44) that talks to the
 * real one: the same options, the same TCP exchange of QPN, PSN and GID, the same queue pair
 * attributes and the same ping-pong of SENDs, so either side can be jroce or Linux rxe.
 */
package io.jroce.tools.pingpong;
