/**
 * Benchmarks: the raw-UDP baselines {@code jroce udp_bw} and {@code udp_lat} (jroce's own socket
 * layer, {@code UdpTransport}, with no RDMA protocol: datagrams of the sizes the RNIC would send,
 * paced like an RC queue pair, reported as perftest reports), the harness {@code jroce bench} that
 * runs each perftest twin and its baseline as pairs of processes and compares them, and
 * {@link io.jroce.tools.bench.ProcessStats}, which any {@code jroce} command writes at exit when
 * {@code JROCE_PROCESS_STATS} names a file. See docs/benchmarks.md.
 */
package io.jroce.tools.bench;
