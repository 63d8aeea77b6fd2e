/**
 * JMH microbenchmarks of jroce's per-packet wire work: building the headers of a request
 * ({@link io.jroce.benchmarks.HeaderEncodeBenchmark}), parsing a received one
 * ({@link io.jroce.benchmarks.HeaderDecodeBenchmark}) and the ICRC
 * ({@link io.jroce.benchmarks.IcrcBenchmark}), each one packet per operation on reused buffers, as
 * the data path does; and the hand-over of completions from the I/O thread to pollers through a
 * CQ's ring ({@link io.jroce.benchmarks.CompletionRingBenchmark}). Run them with
 * {@code java -jar benchmarks/target/benchmarks.jar} (docs/benchmarks.md).
 */
package io.jroce.benchmarks;
