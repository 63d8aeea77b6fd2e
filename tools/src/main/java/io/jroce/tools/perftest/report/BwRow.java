package io.jroce.tools.perftest.report;

/**
 * One row of a BW table, as printed.
 *
 * @param bwPeak    in the table's unit ({@link PerftestReport#bwUnit()})
 * @param bwAverage likewise
 * @param msgRateMpps messages per microsecond
 * @param text      the line as printed
 */
public record BwRow(long bytes, long iterations, double bwPeak, double bwAverage, double msgRateMpps, String text) {
}
