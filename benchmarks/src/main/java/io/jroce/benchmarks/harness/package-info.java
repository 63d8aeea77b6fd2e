/**
 * The benchmark harness, kept out of the product CLI and run by {@code ./jroce} through
 * {@link io.jroce.benchmarks.harness.BenchMain}: the raw-UDP baselines {@code jroce udp_bw} and {@code udp_lat} (jroce's own socket
 * layer, {@code UdpTransport}, with no RDMA protocol: datagrams of the sizes the RNIC would send,
 * paced like an RC queue pair, reported as perftest reports), the harness {@code jroce bench} that
 * runs each perftest twin and its baseline as pairs of processes and compares them (or, with
 * {@code --floor}, compares them with udp-floor, the C floor of the kernel's UDP path, which it
 * compiles from benchmarks/src/main/c: {@code FloorBench} and the {@code Floor*} classes), and
 * {@link io.jroce.benchmarks.harness.ProcessStats}, which any command run through {@code BenchMain}
 * writes at exit when {@code JROCE_PROCESS_STATS} names a file. See docs/benchmarks.md.
 */
package io.jroce.benchmarks.harness;
