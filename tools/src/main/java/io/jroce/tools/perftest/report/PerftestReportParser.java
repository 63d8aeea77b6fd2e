package io.jroce.tools.perftest.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the result table out of what a perftest tool printed (real perftest or a twin, stdout and
 * stderr in any interleaving): the header ({@link PerftestReportWriter#bwHeader} or
 * {@link PerftestReportWriter#latencyHeader}) says which table it is, and every later line that
 * starts with two integers is one of its rows. Other lines are skipped. Numbers are read as
 * glibc's printf writes them, {@code nan}, {@code -nan} and {@code inf} included.
 */
public final class PerftestReportParser {
    private static final Pattern BW_UNIT = Pattern.compile("BW peak\\[([^\\]]+)]");
    private static final Pattern ROW = Pattern.compile("^\\s*\\d+\\s+\\d+\\s+\\S.*$");
    private static final int BW_COLUMNS = 5;
    private static final int LATENCY_COLUMNS = 9;

    private PerftestReportParser() {
    }

    /**
     * The table in {@code output}, split into lines.
     *
     * @param output what the tool printed
     * @return the report
     */
    public static PerftestReport parse(String output) {
        return parse(output.lines().toList());
    }

    /**
     * The table in {@code lines}.
     *
     * @param lines what the tool printed, line by line
     * @return the report
     */
    public static PerftestReport parse(List<String> lines) {
        PerftestReport.Table table = PerftestReport.Table.NONE;
        String header = null;
        String bwUnit = null;
        List<BwRow> bw = new ArrayList<>();
        List<LatencyRow> lat = new ArrayList<>();
        List<String> unparsed = new ArrayList<>();
        for (String raw : lines) {
            String line = raw.replace("\r", "");
            if (line.contains("#bytes") && line.contains("#iterations")) {
                header = line.trim();
                Matcher m;
                if (line.contains("t_min[")) {
                    table = PerftestReport.Table.LAT;
                } else if ((m = BW_UNIT.matcher(line)).find()) {
                    table = PerftestReport.Table.BW;
                    bwUnit = m.group(1);
                }
            } else if (table != PerftestReport.Table.NONE && ROW.matcher(line).matches()) {
                row(table, line, bw, lat, unparsed);
            }
        }
        return new PerftestReport(table, header, bwUnit, bw, lat, unparsed);
    }

    private static void row(PerftestReport.Table table, String line, List<BwRow> bw, List<LatencyRow> lat,
                            List<String> unparsed) {
        String[] f = line.trim().split("\\s+");
        try {
            if (table == PerftestReport.Table.BW && f.length == BW_COLUMNS) {
                bw.add(new BwRow(Long.parseLong(f[0]), Long.parseLong(f[1]), number(f[2]), number(f[3]),
                    number(f[4]), line));
                return;
            }
            if (table == PerftestReport.Table.LAT && f.length == LATENCY_COLUMNS) {
                lat.add(new LatencyRow(Long.parseLong(f[0]), Long.parseLong(f[1]), number(f[2]), number(f[3]),
                    number(f[4]), number(f[5]), number(f[6]), number(f[7]), number(f[8]), line));
                return;
            }
        } catch (NumberFormatException e) {
            // kept below
        }
        unparsed.add(line);
    }

    /**
     * printf's %f output, including glibc's "nan", "-nan", "inf".
     *
     * @param s the printed number
     * @return its value (NaN for nan and -nan, infinity for inf)
     */
    public static double number(String s) {
        String t = s.toLowerCase(Locale.ROOT);
        if (t.equals("nan") || t.equals("-nan")) {
            return Double.NaN;
        }
        if (t.equals("inf")) {
            return Double.POSITIVE_INFINITY;
        }
        if (t.equals("-inf")) {
            return Double.NEGATIVE_INFINITY;
        }
        return Double.parseDouble(s);
    }
}
