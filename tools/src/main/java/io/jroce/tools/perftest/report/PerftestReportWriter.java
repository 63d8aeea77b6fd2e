package io.jroce.tools.perftest.report;

import java.util.Locale;

/**
 * The lines of perftest's result table, with the formats of perftest_parameters.h (v4.5-0.17):
 * RESULT_LINE, RESULT_FMT / RESULT_FMT_G, REPORT_FMT / REPORT_FMT_EXT with REPORT_EXT,
 * RESULT_FMT_LAT / RESULT_FMT_LAT_DUR and REPORT_FMT_LAT / REPORT_FMT_LAT_DUR. perftest's BW unit
 * is MiB/s but its header says {@code MB/sec}; the twins print what it prints.
 */
public final class PerftestReportWriter {
    /** RESULT_LINE, without its newline. */
    public static final String LINE = "-".repeat(87);

    private PerftestReportWriter() {
    }

    /**
     * RESULT_FMT (or RESULT_FMT_G with --report_gbits), without its newline.
     *
     * @param gbits --report_gbits
     * @return the header line
     */
    public static String bwHeader(boolean gbits) {
        return gbits
            ? " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]"
            : " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]";
    }

    /**
     * REPORT_FMT (REPORT_FMT_EXT below 0.1 Gb/s) and REPORT_EXT: a BW row with its newline.
     *
     * @param bwPeak  in the header's unit (MiB/s, or Gb/s with {@code gbits})
     * @param msgRate messages per microsecond (Mpps)
     * @param size the message size in bytes
     * @param iters the iterations
     * @param bwAvg in the header's unit
     * @param gbits --report_gbits
     * @return the row
     */
    public static String bwRow(long size, long iters, double bwPeak, double bwAvg, double msgRate, boolean gbits) {
        boolean moreDigits = bwAvg < 0.1 && gbits;
        return moreDigits
            ? String.format(Locale.ROOT, " %-7d    %d           %-7.6f            %-7.6f            %-7.6f%n", size, iters,
                bwPeak, bwAvg, msgRate)
            : String.format(Locale.ROOT, " %-7d    %-10d       %-7.2f            %-7.2f\t\t   %-7.6f%n", size, iters,
                bwPeak, bwAvg, msgRate);
    }

    /**
     * RESULT_FMT_LAT, or RESULT_FMT_LAT_DUR in duration mode, without its newline.
     *
     * @param duration duration mode (-D)
     * @return the header line
     */
    public static String latencyHeader(boolean duration) {
        return duration
            ? " #bytes        #iterations       t_avg[usec]    tps average"
            : " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]"
                + "   99% percentile[usec]   99.9% percentile[usec] ";
    }

    /**
     * REPORT_FMT_LAT: a latency row (microseconds) with its newline.
     *
     * @param size the message size in bytes
     * @param iters the iterations
     * @param tMin the minimum
     * @param tMax the maximum
     * @param tTypical the typical (median) latency
     * @param tAvg the average
     * @param tStdev the standard deviation
     * @param p99 the 99th percentile
     * @param p999 the 99.9th percentile
     * @return the row
     */
    public static String latencyRow(long size, long iters, double tMin, double tMax, double tTypical, double tAvg,
                                    double tStdev, double p99, double p999) {
        return String.format(Locale.ROOT,
            " %-7d %d          %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f     \t%-7.2f\t\t%-7.2f \t\t%-7.2f%n",
            size, iters, tMin, tMax, tTypical, tAvg, tStdev, p99, p999);
    }

    /**
     * REPORT_FMT_LAT_DUR: average latency (microseconds) and transactions per second, with its newline.
     *
     * @param size the message size in bytes
     * @param iters the iterations
     * @param tAvg the average latency
     * @param tps transactions per second
     * @return the row
     */
    public static String latencyDurationRow(long size, long iters, double tAvg, double tps) {
        return String.format(Locale.ROOT, " %-7d       %d            %-7.2f        %-7.2f%n", size, iters, tAvg, tps);
    }
}
