/**
 * {@code jroce cmtime}: the twin of librdmacm's cmtime (rdma-core v44, {@code librdmacm/examples/cmtime.c}):
 * many RC connections set up and torn down through jroce's RDMA CM, each step timed for all of them,
 * with cmtime's options, output and table, so either side may be jroce or the real cmtime on rxe.
 */
package io.jroce.tools.cmtime;
