package io.jroce.tools.perftest;

import io.jroce.tools.perftest.report.PerftestReportWriter;

/**
 * One line of a BW report (struct bw_report_data), as computed by print_report_bw and printed by
 * print_full_bw_report. perftest counts CPU cycles and divides by the CPU's frequency; the twins
 * count {@link System#nanoTime()} nanoseconds, a clock of 10^9 "cycles" per second, so the same
 * formulas give the same units.
 *
 * @param size    message size
 * @param iters   messages counted (every QP's)
 * @param bwPeak  best BW over any run of consecutive messages, 0 with noPeak
 * @param bwAvg   BW over the whole run
 * @param msgRate messages per microsecond (Mpps)
 */
record BwReport(long size, long iters, double bwPeak, double bwAvg, double msgRate) {
    /** format_factor: MiB (perftest writes "MB") or 10^9 bits. */
    static long formatFactor(boolean gbits) {
        return gbits ? 125_000_000L : 0x100000L;
    }

    /**
     * print_report_bw's arithmetic.
     *
     * @param tposted    post times (ns); only [0] when noPeak
     * @param tcompleted completion times (ns), at the index of each counted completion; only [0] when noPeak
     * @param n          messages counted
     * @param cqMod      completions are counted in steps of this
     */
    static BwReport compute(long size, long n, long[] tposted, long[] tcompleted, boolean noPeak, int cqMod,
                            boolean gbits) {
        final double cyclesPerSecond = 1e9;
        long factor = formatFactor(gbits);
        int last = noPeak ? 0 : (int) n - 1;
        double sum = (double) (tcompleted[last] - tposted[0]);
        long optDelta = tcompleted[0] - tposted[0];
        if (!noPeak) {
            for (int i = 0; i < n; i++) {
                for (long j = roundUp(i + 1, cqMod) - 1; j < n; j += cqMod) {
                    optDelta = unsignedMin(optDelta, Long.divideUnsigned(tcompleted[(int) j] - tposted[i], j - i + 1));
                }
                if (n % cqMod != 0) {
                    long j = n - 1;
                    optDelta = unsignedMin(optDelta, Long.divideUnsigned(tcompleted[(int) j] - tposted[i], j - i + 1));
                }
            }
        }
        double bwAvg = (double) size * n * cyclesPerSecond / (sum * factor);
        double msgRate = (double) n * cyclesPerSecond / (sum * 1_000_000);
        double peakUp = noPeak ? 0 : (double) (size * (long) cyclesPerSecond);
        double peakDown = (double) optDelta * factor;
        return new BwReport(size, n, peakUp / peakDown, bwAvg, msgRate);
    }

    /**
     * perftest's cycles_t is unsigned: its first guess (tcompleted[0] - tposted[0], where
     * tcompleted[0] is unset unless message 0 was signaled) wraps to a huge value that any real
     * delta beats.
     */
    private static long unsignedMin(long a, long b) {
        return Long.compareUnsigned(a, b) <= 0 ? a : b;
    }

    private static long roundUp(long value, long alignment) {
        return value % alignment == 0 ? value : (value / alignment + 1) * alignment;
    }

    /** This report plus the peer's (the two directions of -b). */
    BwReport plus(BwReport remote) {
        return new BwReport(size, iters, bwPeak + remote.bwPeak, bwAvg + remote.bwAvg, msgRate + remote.msgRate);
    }

    /** The result row with its newline ({@link PerftestReportWriter#bwRow}). */
    String row(boolean gbits) {
        return PerftestReportWriter.bwRow(size, iters, bwPeak, bwAvg, msgRate, gbits);
    }
}
