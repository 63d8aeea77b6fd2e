package io.jroce.benchmarks.harness;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one line udp-floor prints (benchmarks/src/main/c/udp-floor.c), read back. Figures a mode
 * does not print are NaN: {@code bw} gives the received UDP payload in Gbit/s and the datagrams in
 * Mpps; {@code pp} (and {@code rtt}) the median and 99th percentile in microseconds: of the half
 * round trip for {@code pp}, of the whole one for {@code rtt}.
 */
record FloorReport(String mode, int size, double gbps, double mpps, double medianUs, double p99Us) {
    private static final String NUMBER = "([0-9]+(?:\\.[0-9]+)?)";
    private static final Pattern BW = Pattern.compile(
        "udp-floor bw size=(\\d+): " + NUMBER + " Gbit/s received, " + NUMBER + " Mpps");
    private static final Pattern LATENCY = Pattern.compile(
        "udp-floor (pp|rtt) size=(\\d+): (?:half round trip )?median " + NUMBER + " usec, p99 " + NUMBER + " usec");

    /** The report in {@code stdout}; empty when no line has the shape of one (a crash, "nan" figures). */
    static Optional<FloorReport> parse(String stdout) {
        for (String line : stdout.lines().toList()) {
            Matcher m = BW.matcher(line);
            if (m.find()) {
                return Optional.of(new FloorReport("bw", Integer.parseInt(m.group(1)), Double.parseDouble(m.group(2)),
                    Double.parseDouble(m.group(3)), Double.NaN, Double.NaN));
            }
            m = LATENCY.matcher(line);
            if (m.find()) {
                return Optional.of(new FloorReport(m.group(1), Integer.parseInt(m.group(2)), Double.NaN, Double.NaN,
                    Double.parseDouble(m.group(3)), Double.parseDouble(m.group(4))));
            }
        }
        return Optional.empty();
    }
}
