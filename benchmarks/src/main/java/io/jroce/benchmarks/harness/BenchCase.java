package io.jroce.benchmarks.harness;

import java.util.ArrayList;
import java.util.List;

/**
 * One comparison: a perftest twin and its raw-UDP baseline, run with the same test arguments.
 *
 * @param testArgs      what both take: -s, -m, -q, ...; without -n, which is {@code iters}
 * @param jroceExtra    what only the twin takes (-F, -N)
 * @param baselineExtra what only the baseline takes (--read)
 * @param pingPong      each iteration moves the message both ways (for CPU per GB)
 * @param target        the goal for the ratio, or null
 */
record BenchCase(String name, String title, String jroceTool, String baselineTool, Metric metric, long size, int qps,
                 int iters, List<String> testArgs, List<String> jroceExtra, List<String> baselineExtra,
                 boolean pingPong, Target target) {

    /** Iterations of the short run whose CPU and allocation are subtracted (perftest's minimum is 5). */
    static final int CALIBRATION_ITERS = 5;

    /** Payload bytes one operation moves. */
    long bytesPerOp() {
        return pingPong ? 2 * size : size;
    }

    List<String> args(boolean jroce, boolean client, BenchOptions o, int iterations) {
        List<String> a = new ArrayList<>();
        a.add(jroce ? jroceTool : baselineTool);
        a.add("--bind");
        a.add(client ? o.clientAddress() : o.serverAddress());
        a.add("-p");
        a.add(Integer.toString(o.tcpPort()));
        a.add("--udp-port");
        a.add(Integer.toString(o.udpPort()));
        a.addAll(testArgs);
        a.add("-n");
        a.add(Integer.toString(iterations));
        a.addAll(jroce ? jroceExtra : baselineExtra);
        if (client) {
            a.add(o.serverAddress());
        }
        return a;
    }
}
