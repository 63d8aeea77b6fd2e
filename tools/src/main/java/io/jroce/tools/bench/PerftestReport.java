package io.jroce.tools.bench;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;

/**
 * perftest's result tables (perftest_parameters.h: RESULT_LINE, RESULT_FMT, REPORT_FMT and their
 * latency twins), so the baselines print what the perftest twins print and the harness reads one
 * format. Bandwidth is of message payload bytes; latency is half the round trip, in microseconds.
 */
final class PerftestReport {
    static final String LINE = "---------------------------------------------------------------------------------------";
    static final String BW_HEADER = " #bytes     #iterations    BW peak[MiB/sec]    BW average[MiB/sec]   MsgRate[Mpps]";
    static final String BW_HEADER_GBITS = " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]";
    static final String LAT_HEADER = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]"
        + "    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] ";

    private PerftestReport() {
    }

    static void bandwidth(PrintStream out, long size, long iterations, double peakMessagesPerSec,
                          double messagesPerSec, boolean gbits) {
        out.println(LINE);
        out.println(gbits ? BW_HEADER_GBITS : BW_HEADER);
        out.println(String.format(Locale.ROOT, " %-7d    %-10d       %-7.2f            %-7.2f\t\t   %-7.6f",
            size, iterations, bandwidth(size, peakMessagesPerSec, gbits), bandwidth(size, messagesPerSec, gbits),
            messagesPerSec / 1e6));
        out.println(LINE);
    }

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
        out.println(LINE);
        out.println(LAT_HEADER);
        out.println(String.format(Locale.ROOT,
            " %-7d %-7d          %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f     \t%-7.2f\t\t%-7.2f \t\t%-7.2f",
            size, n, at(half, 0), at(half, n - 1), at(half, n / 2), avg, n == 0 ? 0 : Math.sqrt(squares / n),
            percentile(half, 0.99), percentile(half, 0.999)));
        out.println(LINE);
    }

    /** Nearest rank: the smallest value with at least {@code p} of the values at or below it. */
    static double percentile(double[] sorted, double p) {
        return at(sorted, (int) Math.ceil(p * sorted.length) - 1);
    }

    private static double at(double[] sorted, int i) {
        return sorted.length == 0 ? 0 : sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}
