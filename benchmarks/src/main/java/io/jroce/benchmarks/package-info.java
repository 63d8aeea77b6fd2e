/**
 * JMH microbenchmarks of jroce's per-packet wire work: building the headers of a request
 * ({@link io.jroce.benchmarks.HeaderEncodeBenchmark}), parsing a received one
 * ({@link io.jroce.benchmarks.HeaderDecodeBenchmark}) and the ICRC
 * ({@link io.jroce.benchmarks.IcrcBenchmark}). Each measures one packet per operation on reused
 * buffers, as the data path does; run them with {@code java -jar benchmarks/target/benchmarks.jar}
 * (docs/benchmarks.md).
 */
package io.jroce.benchmarks;
