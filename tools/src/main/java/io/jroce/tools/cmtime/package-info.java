/**
 * {@code jroce cmtime}: the twin of librdmacm's cmtime (rdma-core v44, {@code librdmacm/examples/cmtime.c}):
 * many RC connections set up and torn down through jroce's RDMA CM, each step timed for all of them,
 * with cmtime's options, output and table, so either side may be jroce or the real cmtime on rxe.
 *
 * <p>Internal: the tools are an application, whose command lines and output are what they promise;
 * their classes are not API and may change in any release (docs/versioning.md).
 */
package io.jroce.tools.cmtime;
