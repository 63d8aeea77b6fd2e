package io.jroce.tools.bench;

/** The figure a case compares, read from the client's perftest row; the ratio is always jroce / baseline. */
enum Metric {
    BW_AVERAGE("BW average [MiB/s]", ReportRow.BW_AVERAGE),
    MSG_RATE("msg rate [Mpps]", ReportRow.MSG_RATE),
    LATENCY_TYPICAL("t_typical [usec]", ReportRow.T_TYPICAL);

    private final String label;
    private final int column;

    Metric(String label, int column) {
        this.label = label;
        this.column = column;
    }

    String label() {
        return label;
    }

    double of(ReportRow row) {
        return row.value(column);
    }
}
