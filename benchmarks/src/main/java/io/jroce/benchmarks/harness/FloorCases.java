package io.jroce.benchmarks.harness;

import java.util.ArrayList;
import java.util.List;

/**
 * The cases of {@code jroce bench --floor}, those of issue 14's table, with its targets: jroce's
 * 64-byte latency tests against udp-floor's two-process busy-polling ping-pong of datagrams the
 * size of their packets (send_lat and write_lat, which report half a round trip: median at most
 * 1.5x, 99th percentile at most 3x; read_lat and atomic_lat, which report a whole round trip,
 * against twice the floor's half round trip, without a target); the 64-byte WRITE rate against
 * the floor's 96-byte datagram rate (at least 1.0x); 64 KiB WRITE at MTU 4096 against the floor's
 * 4112-byte datagrams, payload goodput on both sides (at least 1.0x); and the aggregate 64 KiB
 * WRITE bandwidth on 256 and 1,024 QPs against one QP (at least 0.9x), in the same rounds.
 * The twins run as perftest would (busy polling, their default), with {@code -F}. The latency
 * twins first run as many round trips unmeasured as they measure ({@code --warm-up}), at least
 * {@link #LATENCY_ITERS} also in a quick run: the C
 * program is compiled before it starts, the JVM compiles jroce's data path during its first
 * second or so, and a compilation on a 2-core machine where both processes spin takes a core from
 * one of them (with a tenth, as udp-floor's ping-pong warms up, the JIT still compiled during the
 * measured round trips, and the 99th percentiles were 3 to 6 times higher; docs/benchmarks.md).
 * send_lat also runs without it (the "cold" rows, no target): what a short run of a fresh JVM sees.
 */
final class FloorCases {
    /** The latency tests' round trips, as in the issue (iterations x factor). */
    static final int LATENCY_ITERS = 50_000;
    /**
     * The bandwidth tests' seconds (x factor, at least 1): 8, where the issue ran -D 4. perftest's
     * -D measures between margins of a quarter of the duration; at -D 4 the 2 s it measured still
     * held the JIT's warm-up of the 256- and 1,024-QP runs (at 256 QPs, runs of 3 and 4 s ranged
     * 0.23-0.90 GB/s, runs of 8 s 1.74-1.90 GB/s; docs/benchmarks.md).
     */
    static final int SECONDS = 8;
    static final int SIZE = 64;
    static final int MTU = 4096;
    static final int BIG = 65_536;
    static final int[] MANY_QPS = {256, 1024};
    /** The id of send_lat's run without --warm-up. */
    static final String COLD = "cold";

    private FloorCases() {
    }

    static List<FloorCase> all(double factor) {
        int n = (int) Math.max(1_000, Math.round(LATENCY_ITERS * factor));
        int seconds = (int) Math.max(1, Math.round(SECONDS * factor));
        String size = Integer.toString(SIZE);
        List<FloorCase> cases = new ArrayList<>();
        cases.add(latency("send_lat_64", "send_lat", "64 B SEND", false, FloorDatagram.sendLatency(SIZE), n,
            List.of("-s", size), Target.atMost(1.5), Target.atMost(3), true));
        cases.add(latency("write_lat_64", "write_lat", "64 B WRITE", false, FloorDatagram.writeLatency(SIZE), n,
            List.of("-s", size), Target.atMost(1.5), Target.atMost(3), false));
        // perftest's read_lat and atomic_lat report the whole round trip (request and response).
        cases.add(latency("read_lat_64", "read_lat", "64 B READ", true, FloorDatagram.readLatency(SIZE), n,
            List.of("-s", size), Target.NONE, Target.NONE, false));
        // perftest's atomics move 8 bytes, and -s cannot change that.
        cases.add(latency("atomic_lat", "atomic_lat", "FETCH_ADD", true, FloorDatagram.atomicLatency(), n, List.of(),
            Target.NONE, Target.NONE, false));

        FloorDatagram small = FloorDatagram.writeOnly(SIZE);
        cases.add(new FloorCase("write_rate_64", "RC RDMA WRITE 64 B message rate, 1 QP",
            List.of(FloorRun.floorStream(small, seconds),
                FloorRun.jroce("jroce", "jroce", "write_bw", List.of("-s", size, "-D", Integer.toString(seconds), "-F"))),
            List.of(FloorRow.againstFloor("64 B WRITE", Figure.MPPS, Target.atLeast(1.0)))));

        List<String> big = List.of("-s", Integer.toString(BIG), "-m", Integer.toString(MTU), "-D",
            Integer.toString(seconds), "-F");
        List<FloorRun> runs = new ArrayList<>();
        runs.add(FloorRun.floorStream(FloorDatagram.writeMiddle(MTU), seconds));
        runs.add(FloorRun.jroce("jroce", "jroce, 1 QP", "write_bw", big));
        List<FloorRow> rows = new ArrayList<>();
        rows.add(FloorRow.againstFloor("64 KiB WRITE, MTU 4096, 1 QP", Figure.GOODPUT_GBPS, Target.atLeast(1.0)));
        for (int q : MANY_QPS) {
            List<String> a = new ArrayList<>(big);
            a.addAll(List.of("-q", Integer.toString(q), "-t", Integer.toString(BenchCases.scaleTxDepth(q))));
            runs.add(FloorRun.jroce("q" + q, "jroce, " + q + " QPs", "write_bw", a));
            rows.add(new FloorRow("64 KiB WRITE, " + q + " QPs aggregate vs 1 QP", Figure.GOODPUT_GBPS, "q" + q,
                "jroce", Target.atLeast(0.9), Target.NONE));
        }
        cases.add(new FloorCase("write_bw_64k", "RC RDMA WRITE 64 KiB, MTU 4096, on 1, 256 and 1,024 QPs", runs, rows));
        return cases;
    }

    /** A latency case: udp-floor, the twin with --warm-up and, when {@code alsoCold}, the twin without it (rows without targets). */
    private static FloorCase latency(String name, String tool, String what, boolean roundTrip, int datagram, int n,
                                     List<String> sizeArgs, Target median, Target p99, boolean alsoCold) {
        List<String> cold = new ArrayList<>(sizeArgs);
        cold.addAll(List.of("-n", Integer.toString(n), "-F"));
        List<String> warm = new ArrayList<>(cold);
        // As many as measured, and never fewer than the full run's: the JIT's work is the same for a quick run.
        warm.addAll(List.of("--warm-up", Integer.toString(Math.max(n, LATENCY_ITERS))));
        String rows = what + (roundTrip ? ", round trip" : ", half round trip");
        List<FloorRun> runs = new ArrayList<>(List.of(FloorRun.floorPingPong(datagram, n, roundTrip),
            FloorRun.jroce("jroce", "jroce", tool, warm).pinnedPair()));
        List<FloorRow> table = new ArrayList<>(List.of(FloorRow.againstFloor(rows, Figure.MEDIAN_US, median),
            FloorRow.againstFloor(rows, Figure.P99_US, p99)));
        if (alsoCold) {
            runs.add(FloorRun.jroce(COLD, "jroce, no warm-up", tool, cold).pinnedPair());
            table.add(new FloorRow(rows + ", no warm-up", Figure.MEDIAN_US, COLD, FloorRun.FLOOR, Target.NONE, Target.NONE));
            table.add(new FloorRow(rows + ", no warm-up", Figure.P99_US, COLD, FloorRun.FLOOR, Target.NONE, Target.NONE));
        }
        return new FloorCase(name, "RC " + what + " latency (" + (roundTrip ? "round trip" : "half round trip") + ")",
            runs, table);
    }
}
