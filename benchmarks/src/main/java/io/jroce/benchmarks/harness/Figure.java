package io.jroce.benchmarks.harness;

import io.jroce.tools.perftest.report.BwRow;
import io.jroce.tools.perftest.report.LatencyRow;
import io.jroce.tools.perftest.report.PerftestReport;
import java.util.EnumMap;
import java.util.Map;

/**
 * A figure the floor comparison puts side by side, and how each side's report yields it. The
 * ratio is always jroce / reference, so for latency lower is better, for rates higher.
 */
enum Figure {
    /** perftest's t_typical; udp-floor pp's median half round trip (or twice it: {@link FloorRun#roundTrip}). */
    MEDIAN_US("latency, median [usec]"),
    /** perftest's 99% percentile; udp-floor pp's p99 half round trip (or twice it). */
    P99_US("latency, p99 [usec]"),
    /** Messages (jroce) or datagrams (floor) per microsecond. */
    MPPS("rate [Mpps]"),
    /** Message payload in 10^9 bits per second: see {@link FloorDatagram#goodputGbps}. */
    GOODPUT_GBPS("payload goodput [Gb/s]");

    private static final double MIB = 1 << 20;

    private final String label;

    Figure(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }

    /** What a perftest client's report gives: the latency figures or the bandwidth ones. */
    static Map<Figure, Double> of(PerftestReport r) {
        Map<Figure, Double> f = new EnumMap<>(Figure.class);
        r.lastLatencyRow().ifPresent((LatencyRow row) -> {
            f.put(MEDIAN_US, row.tTypical());
            f.put(P99_US, row.p99());
        });
        r.lastBwRow().ifPresent((BwRow row) -> {
            f.put(MPPS, row.msgRateMpps());
            f.put(GOODPUT_GBPS, gbps(row.bwAverage(), r.bwUnit()));
        });
        return f;
    }

    /**
     * What udp-floor's report of {@code run} gives: its datagram says how much of each is payload;
     * a round-trip run doubles pp's half round trips (each sample is half a round trip, so twice
     * its median or p99 is the round trip's).
     */
    static Map<Figure, Double> of(FloorReport r, FloorRun run) {
        Map<Figure, Double> f = new EnumMap<>(Figure.class);
        if (r.mode().equals("bw")) {
            f.put(MPPS, r.mpps());
            f.put(GOODPUT_GBPS, run.datagram().goodputGbps(r.gbps()));
        } else {
            double factor = run.roundTrip() ? 2 : 1;
            f.put(MEDIAN_US, factor * r.medianUs());
            f.put(P99_US, factor * r.p99Us());
        }
        return f;
    }

    /** perftest's "MB/sec" is MiB/s (2^20 bytes); with --report_gbits it prints Gb/s already. */
    static double gbps(double bw, String unit) {
        return unit != null && unit.startsWith("Gb") ? bw : bw * MIB * 8 / 1e9;
    }
}
