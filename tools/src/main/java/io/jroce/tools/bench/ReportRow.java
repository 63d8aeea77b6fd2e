package io.jroce.tools.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The result row of a perftest report, as the twins and the baselines print it: the numbers on
 * the line after the column header ({@code #bytes ...}). A BW row is
 * {@code bytes iterations peak average msgRate}; a latency row
 * {@code bytes iterations t_min t_max t_typical t_avg t_stdev p99 p99.9}.
 */
record ReportRow(boolean latency, double[] values) {
    static final int ITERATIONS = 1;
    static final int BW_AVERAGE = 3;
    static final int MSG_RATE = 4;
    static final int T_TYPICAL = 4;

    /** The last result row in {@code stdout}, or null when there is none. */
    static ReportRow parse(String stdout) {
        ReportRow found = null;
        String[] lines = stdout.split("\n");
        for (int i = 0; i + 1 < lines.length; i++) {
            String header = lines[i].trim();
            if (!header.startsWith("#bytes")) {
                continue;
            }
            double[] values = numbers(lines[i + 1]);
            boolean latency = header.contains("t_typical");
            if (values != null && values.length >= (latency ? 9 : 5)) {
                found = new ReportRow(latency, values);
            }
        }
        return found;
    }

    private static double[] numbers(String line) {
        List<Double> list = new ArrayList<>();
        for (String word : line.trim().split("\\s+")) {
            try {
                list.add(Double.parseDouble(word));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return list.stream().mapToDouble(Double::doubleValue).toArray();
    }

    double value(int column) {
        return values[column];
    }

    long iterations() {
        return (long) values[ITERATIONS];
    }
}
