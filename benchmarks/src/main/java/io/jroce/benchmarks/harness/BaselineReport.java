package io.jroce.benchmarks.harness;

import io.jroce.tools.perftest.report.PerftestReportWriter;
import java.io.PrintStream;
import java.util.Arrays;

/**
 * The baselines' results as perftest's result tables ({@link PerftestReportWriter}, the twins'
 * writer), so that the harness reads one format. Bandwidth is of message payload bytes; latency is
 * half the round trip, in microseconds.
 */
final class BaselineReport {
    private BaselineReport() {
    }

    static void bandwidth(PrintStream out, long size, long iterations, double peakMessagesPerSec,
                          double messagesPerSec, boolean gbits) {
        out.println(PerftestReportWriter.LINE);
        out.println(PerftestReportWriter.bwHeader(gbits));
        out.print(PerftestReportWriter.bwRow(size, iterations, bandwidth(size, peakMessagesPerSec, gbits),
            bandwidth(size, messagesPerSec, gbits), messagesPerSec / 1e6, gbits));
        out.println(PerftestReportWriter.LINE);
    }

    /** MiB/s (perftest's "MB/sec"), or Gb/s. */
    private static double bandwidth(long size, double messagesPerSec, boolean gbits) {
        double bytesPerSec = size * messagesPerSec;
        return gbits ? bytesPerSec * 8 / 1e9 : bytesPerSec / (1 << 20);
    }

    /** perftest's latency row from round trips in ns, reported as half round trips. */
    static void latency(PrintStream out, long size, long[] roundTripsNs) {
        double[] half = new double[roundTripsNs.length];
        for (int i = 0; i < half.length; i++) {
            half[i] = roundTripsNs[i] / 2e3;
        }
        Arrays.sort(half);
        int n = half.length;
        double sum = 0;
        for (double v : half) {
            sum += v;
        }
        double avg = n == 0 ? 0 : sum / n;
        double squares = 0;
        for (double v : half) {
            squares += (v - avg) * (v - avg);
        }
        out.println(PerftestReportWriter.LINE);
        out.println(PerftestReportWriter.latencyHeader(false));
        out.print(PerftestReportWriter.latencyRow(size, n, at(half, 0), at(half, n - 1), at(half, n / 2), avg,
            n == 0 ? 0 : Math.sqrt(squares / n), percentile(half, 0.99), percentile(half, 0.999)));
        out.println(PerftestReportWriter.LINE);
    }

    /** Nearest rank: the smallest value with at least {@code p} of the values at or below it. */
    static double percentile(double[] sorted, double p) {
        return at(sorted, (int) Math.ceil(p * sorted.length) - 1);
    }

    private static double at(double[] sorted, int i) {
        return sorted.length == 0 ? 0 : sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}
