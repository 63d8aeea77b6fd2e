package io.jroce.benchmarks.harness;

import java.util.List;

/**
 * One figure over the repeated runs of one side: median, least and greatest, and the spread
 * max / min (1.0 when every run gave the same figure). NaN throughout when no run gave the figure.
 */
record Summary(double median, double min, double max, int runs) {
    static Summary of(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).filter(d -> !Double.isNaN(d)).sorted().toArray();
        if (v.length == 0) {
            return new Summary(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        return new Summary(SideResult.median(v), v[0], v[v.length - 1], v.length);
    }

    double spread() {
        return max / min;
    }
}
