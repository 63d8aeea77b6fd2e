package io.jroce.benchmarks.harness;

import java.util.Arrays;
import java.util.List;

/**
 * One side (jroce or baseline) of a case over its repeated runs: medians of the metric, of CPU
 * seconds per GB and bytes allocated per operation (both processes, marginal over the calibration
 * run), and of the server's peak RSS and direct memory. NaN where no run succeeded.
 *
 * @param marginal false when the calibration run failed and whole-process totals were divided
 */
record SideResult(double metric, double cpuSecondsPerGb, double allocatedBytesPerOp, double serverRssPeak,
                  double serverDirectPeak, int runs, int failedRuns, boolean marginal) {

    static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).filter(d -> !Double.isNaN(d)).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    static double median(double... values) {
        return median(Arrays.stream(values).boxed().toList());
    }
}
