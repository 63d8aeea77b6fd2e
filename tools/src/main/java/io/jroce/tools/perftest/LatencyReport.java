package io.jroce.tools.perftest;

import io.jroce.tools.perftest.report.PerftestReportWriter;
import java.util.Arrays;

/**
 * print_report_lat and print_report_lat_duration: latencies from the post times of consecutive
 * iterations. Times are {@link System#nanoTime()} nanoseconds where perftest has CPU cycles; 1000 of
 * them make a microsecond as the CPU's MHz of cycles do. The arithmetic is perftest's, its integer
 * truncations (median, stdev's terms) included.
 */
final class LatencyReport {
    /** LAT_MEASURE_TAIL: the largest deltas left out. */
    private static final int MEASURE_TAIL = 2;
    private static final double NS_PER_USEC = 1000.0;

    private LatencyReport() {
    }

    /**
     * The row of an iterations run.
     *
     * @param tposted   the post time of each iteration
     * @param roundTrip write and send measure a round trip of two messages; read and atomics one
     */
    static String row(long size, long iters, long[] tposted, boolean roundTrip) {
        int measureCnt = (int) iters - 1;
        long[] delta = new long[measureCnt];
        for (int i = 0; i < measureCnt; i++) {
            delta[i] = tposted[i + 1] - tposted[i];
        }
        double quotient = NS_PER_USEC * (roundTrip ? 2 : 1);
        Arrays.sort(delta);
        measureCnt -= MEASURE_TAIL;
        long median = (measureCnt - 1) % 2 != 0
            ? (delta[measureCnt / 2] + delta[measureCnt / 2 - 1]) / 2 : delta[measureCnt / 2];
        double averageSum = 0;
        for (int i = 0; i < measureCnt; i++) {
            averageSum += delta[i] / quotient;
        }
        double average = averageSum / measureCnt;
        double stdevSum = 0;
        for (int i = 0; i < measureCnt; i++) {
            int tempVar = (int) (average - delta[i] / quotient);
            int powVar = (int) Math.pow(tempVar, 2);
            stdevSum += powVar;
        }
        double stdev = Math.sqrt(stdevSum / measureCnt);
        int iters99 = (int) Math.ceil(measureCnt * 0.99);
        int iters999 = (int) Math.ceil(measureCnt * 0.999);
        return PerftestReportWriter.latencyRow(size, iters, delta[0] / quotient, delta[measureCnt] / quotient,
            median / quotient, average, stdev,
            delta[iters99] / quotient, delta[iters999] / quotient);
    }

    /** The row of a duration run: average latency and transactions per second over the sample. */
    static String durationRow(long size, long iters, long sampleNs, boolean roundTrip) {
        double latency = sampleNs / NS_PER_USEC / (roundTrip ? 2 : 1) / iters;
        double tps = iters / (sampleNs / 1e9);
        return PerftestReportWriter.latencyDurationRow(size, iters, latency, tps);
    }
}
