package io.jroce.benchmarks.harness;

import java.util.List;

/**
 * The floor comparison's table: per row the reference's and jroce's median with the range of the
 * runs (min-max), the ratio of the medians (jroce / reference) against its target, and each side's
 * spread (max / min over its runs) with the ratio of the spreads' excess over 1
 * ({@link #spreadRatio}) against the spread target. A
 * spread is judged only when both sides have at least two runs; n/a where a side has no figure
 * (a failed run, or no C compiler for the floor).
 */
final class FloorTable {
    /** Fewest runs a side needs for its spread to be judged. */
    static final int SPREAD_MIN_RUNS = 2;

    private final TextTable table = new TextTable(3, "case", "what", "reference", "reference median (min-max)",
        "jroce median (min-max)", "ratio", "target", "", "spread ref", "spread jroce", "spread ratio", "target", "");
    private final StringBuilder commands = new StringBuilder();

    FloorTable(List<FloorCaseResult> results) {
        for (FloorCaseResult r : results) {
            FloorCase c = r.floorCase();
            commands.append("- `").append(c.name()).append("`:");
            for (FloorRun run : c.runs()) {
                commands.append(" `").append(run.command()).append('`');
            }
            commands.append('\n');
            for (FloorRow row : c.rows()) {
                Summary ref = r.summary(row.reference(), row.figure());
                Summary jroce = r.summary(row.value(), row.figure());
                double ratio = jroce.median() / ref.median();
                boolean judgeSpread = ref.runs() >= SPREAD_MIN_RUNS && jroce.runs() >= SPREAD_MIN_RUNS;
                double spreadRatio = spreadRatio(jroce.spread(), ref.spread());
                table.add(c.name(), row.what() + ": " + row.figure().label(), label(c, row.reference()), cell(ref),
                    cell(jroce), ResultTable.fixed(ratio, 2), target(row.target()), verdict(row.target(), ratio),
                    ResultTable.fixed(ref.spread(), 2), ResultTable.fixed(jroce.spread(), 2),
                    ResultTable.fixed(spreadRatio, 2), target(row.spreadTarget()),
                    judgeSpread ? verdict(row.spreadTarget(), spreadRatio) : "");
            }
        }
    }

    /**
     * How much more jroce's figures swing than the reference's: the ratio of the spreads' excess
     * over 1 ((max/min - 1) / (max/min - 1)), so that 6.8-14.0 against 10.7-16.1 (spreads 2.06 and
     * 1.50) reads 2.1, not the 1.37 of the bare spreads, which would hide a swing twice as wide.
     * 1 when neither side swings at all.
     */
    static double spreadRatio(double jroceSpread, double refSpread) {
        double ref = refSpread - 1;
        double jroce = jroceSpread - 1;
        if (ref <= 0) {
            return jroce <= 0 ? 1.0 : Double.POSITIVE_INFINITY;
        }
        return jroce / ref;
    }

    /** "met", "not met", or "" without a target or a figure. */
    static String verdict(Target t, double ratio) {
        if (t == null || Double.isNaN(ratio) || Double.isInfinite(ratio)) {
            return "";
        }
        return t.met(ratio) ? "met" : "not met";
    }

    /** "2.70 (2.20-3.10)": median and range, as the issue quotes them. */
    static String cell(Summary s) {
        if (s.runs() == 0) {
            return "n/a";
        }
        return ResultTable.num(s.median()) + " (" + ResultTable.num(s.min()) + "-" + ResultTable.num(s.max()) + ")";
    }

    private static String target(Target t) {
        return t == null ? "" : t.toString();
    }

    private static String label(FloorCase c, String runId) {
        return c.runs().stream().filter(r -> r.id().equals(runId)).map(FloorRun::label).findFirst().orElse(runId);
    }

    String text() {
        return table.text();
    }

    String markdown() {
        return table.markdown();
    }

    /** One line per case: the commands its rounds alternate. */
    String commands() {
        return commands.toString();
    }
}
