/**
 * {@code jroce write_bw}, {@code write_lat}, {@code read_bw}, {@code read_lat}, {@code send_bw},
 * {@code send_lat}, {@code atomic_bw} and {@code atomic_lat}: twins of perftest's {@code ib_*} tools
 * (v4.5-0.17, which calls itself 6.06 on the wire) that talk to the real ones: the same options, the
 * same TCP exchange of versions, MTU, keys and reports (with -R the same exchange over a control QP
 * the RDMA CM connected, and the test's QPs connected by the RDMA CM), the same queue pair
 * attributes and loops, and the same report. {@link io.jroce.tools.perftest.PerftestTool} says
 * where the eight differ; {@link io.jroce.tools.perftest.PerftestRun} follows their main()s.
 *
 * <p>Internal: the tools are an application, whose command lines and output are what they promise;
 * their classes are not API and may change in any release (docs/versioning.md).
 */
package io.jroce.tools.perftest;
