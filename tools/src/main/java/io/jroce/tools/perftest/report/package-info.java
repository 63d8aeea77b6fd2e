/**
 * perftest's result table, written and read in one place: {@link
 * io.jroce.tools.perftest.report.PerftestReportWriter} prints it as perftest v4.5-0.17 does (the
 * twins and the benchmark baselines use it), {@link io.jroce.tools.perftest.report.PerftestReportParser}
 * reads it back from any perftest's output (the benchmark harness and the tests use it).
 */
package io.jroce.tools.perftest.report;
