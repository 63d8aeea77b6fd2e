package io.jroce.tools.perftest.report;

/**
 * One row of a latency table, in microseconds ({@code tStdev} is NaN where perftest printed
 * {@code -nan}).
 *
 * @param text the line as printed
 */
public record LatencyRow(long bytes, long iterations, double tMin, double tMax, double tTypical, double tAvg,
                         double tStdev, double p99, double p999, String text) {
}
