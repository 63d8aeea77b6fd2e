package io.jroce.tests.interop;

import io.jroce.tools.perftest.report.BwRow;
import io.jroce.tools.perftest.report.LatencyRow;
import io.jroce.tools.perftest.report.PerftestReport;
import io.jroce.tools.perftest.report.PerftestReportParser;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one perftest tool printed (rdma-core's perftest v4.5-0.17, {@code ib_write_bw} and the
 * others, or jroce's twins, which print the same lines), parsed: the title of the parameter block
 * ({@code RDMA_Write BW Test}), its {@code key : value} pairs, the {@code local address:} and
 * {@code remote address:} lines each with its {@code GID:} line, and the result table
 * ({@link PerftestReportParser}, the parser of the main code), a BW one
 * ({@code #bytes #iterations BW peak BW average MsgRate}) or a latency one ({@code #bytes #iterations
 * t_min t_max t_typical t_avg t_stdev 99% 99.9%}). Lines it does not know (stderr interleaved
 * with stdout, a retry's messages, the guest's console) are skipped. Samples of real perftest on
 * rxe, both roles of every tool, are in {@code src/test/resources/perftest/}.
 *
 * <p>The formats, from perftest_parameters.h and perftest_parameters.c (ctx_print_test_info,
 * print_full_bw_report, print_report_lat) and perftest_communication.c (ctx_print_pingpong_data):
 * <pre>
 *                     RDMA_Write BW Test
 *  Dual-port       : OFF\t\tDevice         : rxe0
 *  ...
 *  local address: LID 0000 QPN 0x0011 PSN 0x3d71bf RKey 0x00027c VAddr 0x007f989fc96000
 *  GID: 00:00:00:00:00:00:00:00:00:00:255:255:172:17:00:03
 *  #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]
 *  65536      200              8.14               7.71   \t\t   0.000123
 *  #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec]
 *  2       200          629.74         4823.96      883.86   \t       1100.96     \t600.22 \t\t4317.69 \t\t4823.96
 * </pre>
 * t_stdev can be {@code -nan} (perftest squares the deviations in an int, which overflows when
 * one sample is far off): parsed as NaN.
 */
final class PerftestOutput {
    /** One {@code local address:} or {@code remote address:} line (after the colon) and its GID line's value. */
    record Address(String fields, String gid) {
        @Override
        public String toString() {
            return fields + " GID " + gid;
        }
    }

    private static final Pattern TITLE = Pattern.compile("^\\s{4,}(\\S.*\\b(?:BW|Latency) Test)\\s*$");
    private static final Pattern DASHES = Pattern.compile("^-{20,}\\s*$");
    private static final Pattern ADDRESS = Pattern.compile("^\\s*(local|remote) address:\\s*(.*?)\\s*$");
    private static final Pattern GID = Pattern.compile("^\\s*GID:\\s*(\\S+)\\s*$");

    private final List<String> lines;
    private String title;
    private final Map<String, String> parameters = new LinkedHashMap<>();
    private final List<Address> local = new ArrayList<>();
    private final List<Address> remote = new ArrayList<>();
    private PerftestReport report;
    private boolean waitingBox;

    private PerftestOutput(List<String> lines) {
        this.lines = List.copyOf(lines);
    }

    /** Parses what one run printed (stdout and stderr, in any interleaving). */
    static PerftestOutput parse(List<String> lines) {
        PerftestOutput o = new PerftestOutput(lines);
        o.parse();
        return o;
    }

    private void parse() {
        boolean inParameters = false;
        List<Address> lastList = null;
        for (String raw : lines) {
            String line = raw.replace("\r", "");
            if (line.contains("* Waiting for client to connect... *")) {
                waitingBox = true;
                continue;
            }
            Matcher m;
            if (title == null && (m = TITLE.matcher(line)).matches()) {
                title = m.group(1).replaceAll("\\s+", " ");
                inParameters = true;
                continue;
            }
            if (DASHES.matcher(line).matches()) {
                inParameters = false;
                continue;
            }
            if ((m = ADDRESS.matcher(line)).matches()) {
                inParameters = false;
                lastList = m.group(1).equals("local") ? local : remote;
                lastList.add(new Address(m.group(2).replaceAll("\\s+", " "), null));
                continue;
            }
            if ((m = GID.matcher(line)).matches() && lastList != null && !lastList.isEmpty()
                && lastList.get(lastList.size() - 1).gid() == null) {
                Address a = lastList.remove(lastList.size() - 1);
                lastList.add(new Address(a.fields(), m.group(1)));
                continue;
            }
            if (line.contains("#bytes") && line.contains("#iterations")) {
                inParameters = false;
                continue;
            }
            if (inParameters) {
                parameterLine(line);
            }
        }
        report = PerftestReportParser.parse(lines);
    }

    /**
     * " Dual-port       : OFF\t\tDevice         : rxe0": one or two pairs, two tabs apart; with -R -T,
     * " Data ex. method : rdma_cm \tTOS    : 184": the TOS after a blank and one tab.
     */
    private void parameterLine(String line) {
        for (String part : line.split("\t\t| \t")) {
            int colon = part.indexOf(':');
            if (colon > 0) {
                String key = part.substring(0, colon).replace('\t', ' ').trim();
                if (!key.isEmpty()) {
                    parameters.put(key, part.substring(colon + 1).trim());
                }
            }
        }
    }

    /** The title of the parameter block, e.g. {@code RDMA_Write BW Test}, or null. */
    String title() {
        return title;
    }

    /** The parameter block's pairs in printed order ({@code "Number of qps" -> "1"}, {@code "Mtu" -> "1024[B]"}). */
    Map<String, String> parameters() {
        return parameters;
    }

    List<Address> localAddresses() {
        return local;
    }

    List<Address> remoteAddresses() {
        return remote;
    }

    PerftestReport.Table table() {
        return report.table();
    }

    /** The table's header line, trimmed, or null. */
    String tableHeader() {
        return report.header();
    }

    /** The unit of a BW table: {@code MB/sec} or, with --report_gbits, {@code Gb/sec}. */
    String bwUnit() {
        return report.bwUnit();
    }

    List<BwRow> bwRows() {
        return report.bwRows();
    }

    List<LatencyRow> latRows() {
        return report.latencyRows();
    }

    /** Lines after a table header that start like a row but do not parse as one. */
    List<String> unparsedRows() {
        return report.unparsedRows();
    }

    /**
     * perftest could not calibrate its clock: get_cpu_mhz() found the cycle counter and
     * gettimeofday too poorly correlated ("Correlation coefficient r^2: 0.72 < 0.9", which happens
     * now and then under QEMU's TCG) and returned 0; with {@code -F} the tool goes on and every
     * number it derives from time prints as 0 (BW rows) or inf/nan (latency rows). Counts stay right.
     */
    boolean clockUncalibrated() {
        return lines.stream().anyMatch(l -> l.contains("Correlation coefficient r^2"));
    }

    /** The server's "Waiting for client to connect..." box was printed. */
    boolean waitingBox() {
        return waitingBox;
    }

    List<String> lines() {
        return lines;
    }

    /**
     * A GID as perftest prints it (PERF_GID_FMT: 16 bytes, each "%02d", colon separated), for an
     * IPv4 address: the IPv4-mapped GID, e.g. {@code 00:...:00:255:255:172:17:00:03}.
     */
    static String ipv4Gid(String ipv4) {
        StringBuilder b = new StringBuilder("00:00:00:00:00:00:00:00:00:00:255:255");
        for (String octet : ipv4.split("\\.")) {
            b.append(':').append(String.format(java.util.Locale.ROOT, "%02d", Integer.parseInt(octet)));
        }
        return b.toString();
    }

    /**
     * BW average as perftest derives it from the same counts as the message rate (print_report_bw:
     * bw_avg = size x msgRate x 10^6 / format_factor, 2^20 for MB/sec, 125,000,000 for Gb/sec).
     * True when the printed BW average matches the printed size and message rate within their
     * rounding (BW printed with 2 decimals, or 6 when below 0.1 Gb/sec; rate with 6).
     */
    static boolean bwConsistentWithRate(BwRow r, String unit) {
        double factor = unit.startsWith("Gb") ? 125_000_000.0 : 1_048_576.0;
        double expected = r.bytes() * r.msgRateMpps() * 1e6 / factor;
        double rateSlack = r.bytes() * 0.5e-6 * 1e6 / factor;
        double printSlack = unit.startsWith("Gb") && r.bwAverage() < 0.1 ? 0.5e-6 : 0.005;
        return Math.abs(r.bwAverage() - expected) <= rateSlack + printSlack + 1e-9;
    }

    @Override
    public String toString() {
        return String.join("\n", lines);
    }
}
