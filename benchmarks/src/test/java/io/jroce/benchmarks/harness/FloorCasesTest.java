package io.jroce.benchmarks.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.tools.UsageException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The floor cases' commands (issue 14's table, the bandwidth runs 8 s long) and {@code bench --floor}'s options. */
class FloorCasesTest {
    private static List<String> commands(List<FloorCase> cases, String name) {
        return cases.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow()
            .runs().stream().map(FloorRun::command).toList();
    }

    @Test
    void theCasesRunTheIssuesCommands() {
        List<FloorCase> cases = FloorCases.all(1);
        assertEquals(List.of("send_lat_64", "write_lat_64", "read_lat_64", "atomic_lat", "write_rate_64", "write_bw_64k"),
            cases.stream().map(FloorCase::name).toList());
        assertEquals(List.of("udp-floor pp 80 50000", "jroce send_lat -s 64 -n 50000 -F --warm-up 50000",
            "jroce send_lat -s 64 -n 50000 -F"), commands(cases, "send_lat_64"));
        assertEquals(List.of("udp-floor pp 96 50000", "jroce write_lat -s 64 -n 50000 -F --warm-up 50000"),
            commands(cases, "write_lat_64"));
        assertEquals(List.of("udp-floor pp 58 50000", "jroce read_lat -s 64 -n 50000 -F --warm-up 50000"),
            commands(cases, "read_lat_64"));
        assertTrue(cases.get(2).runs().get(0).roundTrip(), "read_lat reports a whole round trip, as perftest's");
        assertFalse(cases.get(0).runs().get(0).roundTrip(), "send_lat reports half a round trip, as perftest's");
        assertEquals(List.of("udp-floor pp 36 50000", "jroce atomic_lat -n 50000 -F --warm-up 50000"),
            commands(cases, "atomic_lat"));
        assertEquals(List.of("jroce", "jroce", "cold", "cold"), cases.get(0).rows().stream().map(FloorRow::value).toList(),
            "send_lat's rows: warmed up against the floor's median and p99, then without the warm-up");
        // 8 s where the issue ran -D 4: at 4 the sample held the many-QP runs' JIT warm-up (FloorCases.SECONDS)
        assertEquals(List.of("udp-floor bw 96 8", "jroce write_bw -s 64 -D 8 -F"), commands(cases, "write_rate_64"));
        assertEquals(List.of("udp-floor bw 4112 8", "jroce write_bw -s 65536 -m 4096 -D 8 -F",
                "jroce write_bw -s 65536 -m 4096 -D 8 -F -q 256 -t 64",
                "jroce write_bw -s 65536 -m 4096 -D 8 -F -q 1024 -t 16"),
            commands(cases, "write_bw_64k"));
    }

    @Test
    void theLatencyPairsArePinnedAndTheBandwidthRunsAreNot() throws UsageException {
        for (FloorCase c : FloorCases.all(1)) {
            boolean latency = c.name().contains("lat");
            for (FloorRun run : c.runs()) {
                assertEquals(latency, run.pinned(), c.name() + ": " + run.command());
            }
        }
        assertTrue(BenchOptions.parse(List.of("--floor")).pin());
        assertFalse(BenchOptions.parse(List.of("--floor", "--no-pin")).pin());
    }

    @Test
    void quickScalesIterationsAndSecondsButKeepsAFloor() {
        List<FloorCase> cases = FloorCases.all(0.1);
        // the warm-up stays whole: the JIT compiles as much for a short run as for a long one
        assertEquals(List.of("udp-floor pp 80 5000", "jroce send_lat -s 64 -n 5000 -F --warm-up 50000",
            "jroce send_lat -s 64 -n 5000 -F"), commands(cases, "send_lat_64"));
        assertEquals(List.of("udp-floor bw 96 1", "jroce write_bw -s 64 -D 1 -F"), commands(cases, "write_rate_64"));
        assertEquals(List.of("udp-floor pp 80 1000", "jroce send_lat -s 64 -n 1000 -F --warm-up 50000",
                "jroce send_lat -s 64 -n 1000 -F"),
            commands(FloorCases.all(0.001), "send_lat_64"));
    }

    @Test
    void twinsGetTheHarnesssAddressesAndPorts() throws UsageException {
        BenchOptions o = BenchOptions.parse(List.of("--floor", "-p", "18600", "--udp-port", "14791"));
        FloorRun run = FloorCases.all(1).get(0).runs().get(1);
        assertEquals(List.of("send_lat", "--bind", "127.0.0.2", "-p", "18600", "--udp-port", "14791", "-s", "64", "-n",
            "50000", "-F", "--warm-up", "50000"), run.twinArgs(false, o));
        assertEquals(List.of("send_lat", "--bind", "127.0.0.1", "-p", "18600", "--udp-port", "14791", "-s", "64", "-n",
            "50000", "-F", "--warm-up", "50000", "127.0.0.2"), run.twinArgs(true, o));
    }

    @Test
    void floorRunsFiveRoundsByDefaultAndHasItsOwnCases() throws UsageException {
        BenchOptions o = BenchOptions.parse(List.of("--cases", "write_lat_64,atomic_lat", "--floor"));
        assertTrue(o.floor());
        assertEquals(5, o.repeat());
        assertEquals(List.of("write_lat_64", "atomic_lat"), o.selectedFloorCases().stream().map(FloorCase::name).toList());
        assertEquals(3, BenchOptions.parse(List.of()).repeat());
        assertFalse(BenchOptions.parse(List.of()).floor());
        assertEquals(7, BenchOptions.parse(List.of("--floor", "-r", "7")).repeat());
        BenchOptions quick = BenchOptions.parse(List.of("--floor", "--quick"));
        assertEquals(1, quick.repeat());
        assertEquals(0.1, quick.itersFactor());
        String error = assertThrows(UsageException.class,
            () -> BenchOptions.parse(List.of("--cases", "write_lat_64"))).getMessage();
        assertTrue(error.startsWith("unknown case 'write_lat_64'; the cases are write_bw_64k "), error);
        error = assertThrows(UsageException.class,
            () -> BenchOptions.parse(List.of("--floor", "--cases", "scale_q16"))).getMessage();
        assertEquals("unknown case 'scale_q16'; the cases are send_lat_64 write_lat_64 read_lat_64 atomic_lat"
            + " write_rate_64 write_bw_64k", error);
    }
}
