/**
 * perftest's result table, written and read in one place: {@link
 * io.jroce.tools.perftest.report.PerftestReportWriter} prints it as perftest v4.5-0.17 does (the
 * twins and the benchmark baselines use it), {@link io.jroce.tools.perftest.report.PerftestReportParser}
 * reads it back from any perftest's output (the benchmark harness and the tests use it).
 *
 * <p>Internal: the tools are an application, whose command lines and output are what they promise;
 * their classes are not API and may change in any release (docs/versioning.md).
 */
package io.jroce.tools.perftest.report;
