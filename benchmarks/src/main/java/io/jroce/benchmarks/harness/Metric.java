package io.jroce.benchmarks.harness;

import io.jroce.tools.perftest.report.BwRow;
import io.jroce.tools.perftest.report.LatencyRow;
import io.jroce.tools.perftest.report.PerftestReport;
import java.util.function.ToDoubleFunction;

/** The figure a case compares, read from the client's perftest row; the ratio is always jroce / baseline. */
enum Metric {
    BW_AVERAGE("BW average [MiB/s]", r -> r.lastBwRow().map(BwRow::bwAverage).orElse(Double.NaN)),
    MSG_RATE("msg rate [Mpps]", r -> r.lastBwRow().map(BwRow::msgRateMpps).orElse(Double.NaN)),
    LATENCY_TYPICAL("t_typical [usec]", r -> r.lastLatencyRow().map(LatencyRow::tTypical).orElse(Double.NaN));

    private final String label;
    private final ToDoubleFunction<PerftestReport> column;

    Metric(String label, ToDoubleFunction<PerftestReport> column) {
        this.label = label;
        this.column = column;
    }

    String label() {
        return label;
    }

    /** The figure in {@code report}'s last row; NaN when the report has no row of its kind. */
    double of(PerftestReport report) {
        return column.applyAsDouble(report);
    }
}
