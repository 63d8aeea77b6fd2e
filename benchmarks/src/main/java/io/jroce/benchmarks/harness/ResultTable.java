package io.jroce.benchmarks.harness;

import java.util.List;
import java.util.Locale;

/**
 * The harness's table, as aligned text and as markdown: per case the jroce and baseline medians,
 * the ratio and the target, CPU seconds per GB and bytes allocated per operation of each, and for
 * the scale cases the server's memory per QP ((peak RSS at -q N - peak RSS at -q 1) / (N - 1)).
 */
final class ResultTable {
    private final TextTable table = new TextTable(2, "case", "metric", "jroce", "baseline", "ratio", "target", "",
        "CPU s/GB jroce", "CPU s/GB base", "alloc B/op jroce", "alloc B/op base", "RSS/QP jroce", "RSS/QP base");

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
            table.add(c.name(), c.metric().label(), num(r.jroce().metric()), num(r.baseline().metric()),
                fixed(r.ratio(), 2), c.target() == null ? "" : c.target().toString(), r.verdict(),
                fixed(r.jroce().cpuSecondsPerGb(), 2) + mark(r.jroce()),
                fixed(r.baseline().cpuSecondsPerGb(), 2) + mark(r.baseline()),
                fixed(r.jroce().allocatedBytesPerOp(), 0) + mark(r.jroce()),
                fixed(r.baseline().allocatedBytesPerOp(), 0) + mark(r.baseline()), perQpJroce, perQpBase);
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
        return table.text();
    }

    String markdown() {
        return table.markdown();
    }

    static String num(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        return v >= 100 ? fixed(v, 1) : v >= 1 ? fixed(v, 2) : fixed(v, 4);
    }

    static String fixed(double v, int decimals) {
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
