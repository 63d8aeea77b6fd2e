package io.jroce.benchmarks.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The floor table's medians, ranges, ratios, spreads and verdicts, from figures given by hand. */
class FloorTableTest {
    private static FloorCase floorCase(String name) {
        return FloorCases.all(1).stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    /** One map per run: the i-th value of each figure's list. */
    private static List<Map<Figure, Double>> runs(Figure a, double[] av, Figure b, double[] bv) {
        List<Map<Figure, Double>> runs = new ArrayList<>();
        for (int i = 0; i < av.length; i++) {
            Map<Figure, Double> f = new EnumMap<>(Figure.class);
            f.put(a, av[i]);
            if (b != null) {
                f.put(b, bv[i]);
            }
            runs.add(f);
        }
        return runs;
    }

    private static List<String> rows(String markdown) {
        return markdown.lines().filter(l -> l.startsWith("| ") && !l.startsWith("| case ") && !l.startsWith("| ---")).toList();
    }

    @Test
    void latencyRowsGiveMedianRangeRatioAndSpreadsAgainstTheTargets() {
        Map<String, List<Map<Figure, Double>>> figures = new LinkedHashMap<>();
        figures.put("floor", runs(Figure.MEDIAN_US, new double[] {2.2, 2.7, 3.1, 2.5, 2.9},
            Figure.P99_US, new double[] {6.2, 3.7, 8.2, 5.0, 7.0}));
        figures.put("jroce", runs(Figure.MEDIAN_US, new double[] {14.7, 13.8, 17.8, 15.0, 14.0},
            Figure.P99_US, new double[] {1026, 752, 1266, 900, 1100}));
        figures.put("cold", runs(Figure.MEDIAN_US, new double[] {15.0, 14.0, 18.0, 15.5, 14.5},
            Figure.P99_US, new double[] {2000, 1500, 2500, 1800, 2200}));
        FloorTable t = new FloorTable(List.of(new FloorCaseResult(floorCase("send_lat_64"), figures)));
        List<String> rows = rows(t.markdown());
        // median 14.7 / 2.7 = 5.44; spreads 17.8 / 13.8 = 1.29 and 3.1 / 2.2 = 1.41, excess ratio 0.29 / 0.41 = 0.71
        assertEquals("| send_lat_64 | 64 B SEND, half round trip: latency, median [usec] | udp-floor pp 80 | 2.70 (2.20-3.10)"
            + " | 14.70 (13.80-17.80) | 5.44 | <= 1.50 | not met | 1.41 | 1.29 | 0.71 | <= 1.50 | met |", rows.get(0));
        // p99 1026 / 6.2 = 165.48; spreads 1266 / 752 = 1.68 and 8.2 / 3.7 = 2.22, excess ratio 0.68 / 1.22 = 0.56
        assertEquals("| send_lat_64 | 64 B SEND, half round trip: latency, p99 [usec] | udp-floor pp 80 | 6.20 (3.70-8.20)"
            + " | 1026.0 (752.0-1266.0) | 165.48 | <= 3.00 | not met | 2.22 | 1.68 | 0.56 | <= 1.50 | met |", rows.get(1));
        // without the warm-up: 15.0 / 2.7 = 5.56 and 2000 / 6.2 = 322.58 (spreads 1.29 and 1.67), no targets
        assertEquals("| send_lat_64 | 64 B SEND, half round trip, no warm-up: latency, median [usec] | udp-floor pp 80"
            + " | 2.70 (2.20-3.10) | 15.00 (14.00-18.00) | 5.56 |  |  | 1.41 | 1.29 | 0.70 |  |  |", rows.get(2));
        assertEquals("| send_lat_64 | 64 B SEND, half round trip, no warm-up: latency, p99 [usec] | udp-floor pp 80"
            + " | 6.20 (3.70-8.20) | 2000.0 (1500.0-2500.0) | 322.58 |  |  | 2.22 | 1.67 | 0.55 |  |  |", rows.get(3));
        assertEquals(4, rows.size());
        assertTrue(t.commands().contains("`send_lat_64`: `udp-floor pp 80 50000` `jroce send_lat -s 64 -n 50000 -F"
            + " --warm-up 50000` `jroce send_lat -s 64 -n 50000 -F`"), t.commands());
    }

    @Test
    void bandwidthRowsCompareGoodputWithTheFloorAndManyQpsWithOne() {
        Map<String, List<Map<Figure, Double>>> figures = new LinkedHashMap<>();
        figures.put("floor", runs(Figure.GOODPUT_GBPS, new double[] {14.0, 13.0, 16.0, 12.0, 15.0}, null, null));
        figures.put("jroce", runs(Figure.GOODPUT_GBPS, new double[] {14.0, 15.0, 16.0, 12.0, 21.0}, null, null));
        figures.put("q256", runs(Figure.GOODPUT_GBPS, new double[] {13.0, 13.5, 14.0, 14.5, 15.0}, null, null));
        figures.put("q1024", runs(Figure.GOODPUT_GBPS, new double[] {10.0, 10.0, 10.0, 10.0, 10.0}, null, null));
        List<String> rows = rows(new FloorTable(List.of(new FloorCaseResult(floorCase("write_bw_64k"), figures)))
            .markdown());
        // 15 / 14 = 1.07 met; spreads 21 / 12 = 1.75 and 16 / 12 = 1.33: excess ratio 0.75 / 0.33 = 2.25, not met
        assertEquals("| write_bw_64k | 64 KiB WRITE, MTU 4096, 1 QP: payload goodput [Gb/s] | udp-floor bw 4112"
            + " | 14.00 (12.00-16.00) | 15.00 (12.00-21.00) | 1.07 | >= 1.00 | met | 1.33 | 1.75 | 2.25 | <= 1.50 | not met |",
            rows.get(0));
        // against jroce on one QP: 14 / 15 = 0.93 met, 10 / 15 = 0.67 not met; no spread target
        assertEquals("| write_bw_64k | 64 KiB WRITE, 256 QPs aggregate vs 1 QP: payload goodput [Gb/s] | jroce, 1 QP"
            + " | 15.00 (12.00-21.00) | 14.00 (13.00-15.00) | 0.93 | >= 0.90 | met | 1.75 | 1.15 | 0.21 |  |  |",
            rows.get(1));
        assertEquals("| write_bw_64k | 64 KiB WRITE, 1024 QPs aggregate vs 1 QP: payload goodput [Gb/s] | jroce, 1 QP"
            + " | 15.00 (12.00-21.00) | 10.00 (10.00-10.00) | 0.67 | >= 0.90 | not met | 1.75 | 1.00 | 0.00 |  |  |",
            rows.get(2));
    }

    @Test
    void theSpreadRatioComparesHowFarEachSideSwings() {
        assertEquals(2.10, FloorTable.spreadRatio(14.0 / 6.8, 16.1 / 10.7), 0.01); // the 64 KiB WRITE sitting
        assertEquals(1.0, FloorTable.spreadRatio(1.0, 1.0));
        assertEquals(Double.POSITIVE_INFINITY, FloorTable.spreadRatio(1.1, 1.0));
    }

    @Test
    void aFloorWithoutFiguresIsNaAndJudgesNothing() {
        Map<String, List<Map<Figure, Double>>> figures = new LinkedHashMap<>();
        figures.put("floor", List.of());
        figures.put("jroce", runs(Figure.MPPS, new double[] {0.24, 0.17, 0.32}, null, null));
        String text = new FloorTable(List.of(new FloorCaseResult(floorCase("write_rate_64"), figures))).text();
        String row = text.lines().filter(l -> l.startsWith("write_rate_64")).findFirst().orElseThrow();
        assertEquals(List.of("write_rate_64", "64", "B", "WRITE:", "rate", "[Mpps]", "udp-floor", "bw", "96", "n/a",
            "0.2400", "(0.1700-0.3200)", "n/a", ">=", "1.00", "n/a", "1.88", "n/a", "<=", "1.50"),
            List.of(row.trim().split("\\s+")));
    }

    @Test
    void aSingleRunHasNoSpreadVerdict() {
        Map<String, List<Map<Figure, Double>>> figures = new LinkedHashMap<>();
        figures.put("floor", runs(Figure.MPPS, new double[] {0.5}, null, null));
        figures.put("jroce", runs(Figure.MPPS, new double[] {0.6}, null, null));
        List<String> rows = rows(new FloorTable(List.of(new FloorCaseResult(floorCase("write_rate_64"), figures)))
            .markdown());
        assertEquals("| write_rate_64 | 64 B WRITE: rate [Mpps] | udp-floor bw 96 | 0.5000 (0.5000-0.5000)"
            + " | 0.6000 (0.6000-0.6000) | 1.20 | >= 1.00 | met | 1.00 | 1.00 | 1.00 | <= 1.50 |  |", rows.get(0));
    }

    @Test
    void summaryIgnoresMissingFiguresAndSpreadsMaxOverMin() {
        Summary s = Summary.of(List.of(3.0, Double.NaN, 1.0, 2.0, 4.0));
        assertEquals(4, s.runs());
        assertEquals(2.5, s.median());
        assertEquals(1.0, s.min());
        assertEquals(4.0, s.max());
        assertEquals(4.0, s.spread());
        assertEquals(0, Summary.of(List.of()).runs());
        assertTrue(Double.isNaN(Summary.of(List.of()).median()));
    }
}
