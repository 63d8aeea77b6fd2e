package io.jroce.benchmarks.harness;

import java.util.ArrayList;
import java.util.List;

/**
 * The cases of {@code jroce bench}, with the targets: RC RDMA WRITE of 64 KiB at MTU 4096
 * on one QP at least 70% of the baseline's bytes/s; 64-byte WRITE message rate at least 50%; RC
 * SEND latency of 64 bytes at most 1.5x the baseline's half round trip; RDMA READ of 64 KiB; and
 * WRITE bandwidth on 1, 16, 256 and 1024 QPs, for aggregate bandwidth and memory per QP.
 */
final class BenchCases {
    /**
     * Messages of the scale cases over all QPs (at least 20 per QP). Every case runs for seconds,
     * not fractions of one: both sides are JVMs, and a short run measures the JIT's warm-up.
     */
    static final int SCALE_MESSAGES = 20_000;
    static final int[] SCALE_QPS = {1, 16, 256, 1024};

    private BenchCases() {
    }

    static List<BenchCase> all(double itersFactor) {
        List<String> mtu = List.of("-m", "4096");
        List<String> twin = List.of("-F", "-N"); // -N: perftest's peak is O(n^2) CPU after the run
        List<BenchCase> cases = new ArrayList<>();
        cases.add(new BenchCase("write_bw_64k", "RC RDMA WRITE 64 KiB, MTU 4096, 1 QP", "write_bw", "udp_bw",
            Metric.BW_AVERAGE, 65536, 1, iters(50_000, itersFactor), concat(List.of("-s", "65536"), mtu), twin, List.of(),
            false, Target.atLeast(0.70)));
        cases.add(new BenchCase("write_rate_64", "RC RDMA WRITE 64 B message rate, 1 QP", "write_bw", "udp_bw",
            Metric.MSG_RATE, 64, 1, iters(1_000_000, itersFactor), concat(List.of("-s", "64"), mtu), twin, List.of(),
            false, Target.atLeast(0.50)));
        cases.add(new BenchCase("send_lat_64", "RC SEND latency 64 B (half round trip)", "send_lat", "udp_lat",
            Metric.LATENCY_TYPICAL, 64, 1, iters(100_000, itersFactor), concat(List.of("-s", "64"), mtu), List.of("-F"),
            List.of(), true, Target.atMost(1.5)));
        cases.add(new BenchCase("send_lat_64_busy", "RC SEND latency 64 B, baseline's event loop never sleeping",
            "send_lat", "udp_lat", Metric.LATENCY_TYPICAL, 64, 1, iters(100_000, itersFactor),
            concat(List.of("-s", "64"), mtu), List.of("-F"), List.of("--busy-poll"), true, Target.NONE));
        cases.add(new BenchCase("read_bw_64k", "RC RDMA READ 64 KiB, MTU 4096, 1 QP", "read_bw", "udp_bw",
            Metric.BW_AVERAGE, 65536, 1, iters(20_000, itersFactor), concat(List.of("-s", "65536"), mtu), twin,
            List.of("--read"), false, Target.NONE));
        for (int q : SCALE_QPS) {
            cases.add(new BenchCase("scale_q" + q, "RC RDMA WRITE 64 KiB on " + q + " QP" + (q > 1 ? "s" : "")
                    + " (aggregate)", "write_bw", "udp_bw", Metric.BW_AVERAGE, 65536, q,
                Math.max(20, iters(SCALE_MESSAGES / q, itersFactor)),
                concat(List.of("-s", "65536", "-q", Integer.toString(q), "-t", Integer.toString(scaleTxDepth(q))), mtu),
                twin, List.of(), false, Target.NONE));
        }
        return cases;
    }

    /**
     * perftest's send CQ holds tx_depth entries per QP, and a CQ holds at most 32,767 (rxe's and
     * jroce's max_cqe): 128 up to 128 QPs, then 16,384 / QPs (64 at 256 QPs, 16 at 1,024).
     */
    static int scaleTxDepth(int qps) {
        return Math.min(128, 16_384 / qps);
    }

    private static int iters(int n, double factor) {
        return (int) Math.max(BenchCase.CALIBRATION_ITERS * 4L, Math.round(n * factor));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
