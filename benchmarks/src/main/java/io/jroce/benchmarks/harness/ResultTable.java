package io.jroce.benchmarks.harness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The harness's table, as aligned text and as markdown: per case the jroce and baseline medians,
 * the ratio and the target, CPU seconds per GB and bytes allocated per operation of each, and for
 * the scale cases the server's memory per QP ((peak RSS at -q N - peak RSS at -q 1) / (N - 1)).
 */
final class ResultTable {
    private static final String[] HEADER = {"case", "metric", "jroce", "baseline", "ratio", "target", "",
        "CPU s/GB jroce", "CPU s/GB base", "alloc B/op jroce", "alloc B/op base", "RSS/QP jroce", "RSS/QP base"};

    private final List<String[]> rows = new ArrayList<>();

    ResultTable(List<CaseResult> results) {
        CaseResult oneQp = results.stream().filter(r -> r.benchCase().name().equals("scale_q1")).findFirst().orElse(null);
        for (CaseResult r : results) {
            BenchCase c = r.benchCase();
            String perQpJroce = "";
            String perQpBase = "";
            if (oneQp != null && c.name().startsWith("scale_q") && c.qps() > 1) {
                perQpJroce = bytes(perQp(r.jroce(), oneQp.jroce(), c.qps()));
                perQpBase = bytes(perQp(r.baseline(), oneQp.baseline(), c.qps()));
            }
            rows.add(new String[] {c.name(), c.metric().label(), num(r.jroce().metric()), num(r.baseline().metric()),
                fixed(r.ratio(), 2), c.target() == null ? "" : c.target().toString(), r.verdict(),
                fixed(r.jroce().cpuSecondsPerGb(), 2) + mark(r.jroce()),
                fixed(r.baseline().cpuSecondsPerGb(), 2) + mark(r.baseline()),
                fixed(r.jroce().allocatedBytesPerOp(), 0) + mark(r.jroce()),
                fixed(r.baseline().allocatedBytesPerOp(), 0) + mark(r.baseline()), perQpJroce, perQpBase});
        }
    }

    private static double perQp(SideResult atQ, SideResult atOne, int q) {
        return (atQ.serverRssPeak() - atOne.serverRssPeak()) / (q - 1);
    }

    /** "*": whole-process totals, the calibration run having failed. */
    private static String mark(SideResult s) {
        return s.marginal() ? "" : "*";
    }

    String text() {
        int[] width = new int[HEADER.length];
        Arrays.fill(width, 1); // "%0s" is no format: a column empty in every row is one space wide
        List<String[]> all = new ArrayList<>();
        all.add(HEADER);
        all.addAll(rows);
        for (String[] r : all) {
            for (int i = 0; i < r.length; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String[] r : all) {
            for (int i = 0; i < r.length; i++) {
                String cell = i <= 1 ? pad(r[i], width[i]) : String.format("%" + width[i] + "s", r[i]);
                sb.append(i == 0 ? "" : "  ").append(cell);
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("| ").append(String.join(" | ", HEADER)).append(" |\n|");
        for (int i = 0; i < HEADER.length; i++) {
            sb.append(i <= 1 ? " --- |" : " ---: |");
        }
        sb.append('\n');
        for (String[] r : rows) {
            sb.append("| ").append(String.join(" | ", r)).append(" |\n");
        }
        return sb.toString();
    }

    private static String pad(String s, int width) {
        return s + " ".repeat(width - s.length());
    }

    private static String num(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        return v >= 100 ? fixed(v, 1) : v >= 1 ? fixed(v, 2) : fixed(v, 4);
    }

    private static String fixed(double v, int decimals) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "n/a" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    private static String bytes(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        return Math.abs(v) >= 1 << 20 ? fixed(v / (1 << 20), 1) + " MiB"
            : Math.abs(v) >= 1024 ? fixed(v / 1024, 1) + " KiB" : fixed(v, 0) + " B";
    }
}
