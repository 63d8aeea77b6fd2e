package io.jroce.benchmarks.harness;

import java.util.ArrayList;
import java.util.List;

/**
 * One side of a floor case: udp-floor with its arguments, or a perftest twin pair (server and
 * client) with its test arguments. {@code id} names it within its case ("floor", "jroce", "q256").
 *
 * @param label    what the table calls it ("udp-floor pp 80", "jroce, 256 QPs")
 * @param datagram what the floor's datagrams stand for (goodput); null for jroce runs
 * @param roundTrip a floor ping-pong whose latency is compared as a whole round trip (twice pp's
 *                  half round trip), as perftest's read_lat and atomic_lat report theirs
 * @param pinned   a latency pair: its two processes run on CPUs of their own when the sitting pins
 *                 ({@link CpuPinning})
 */
record FloorRun(String id, String label, boolean floor, List<String> args, FloorDatagram datagram, boolean roundTrip,
                boolean pinned) {
    static final String FLOOR = "floor";

    /**
     * udp-floor pp: two processes, busy polling, {@code count} round trips of {@code size}-byte
     * datagrams; its figures are half round trips, or whole ones when {@code roundTrip}.
     */
    static FloorRun floorPingPong(int size, int count, boolean roundTrip) {
        return new FloorRun(FLOOR, "udp-floor pp " + size + (roundTrip ? " x 2" : ""), true,
            List.of("pp", Integer.toString(size), Integer.toString(count)), null, roundTrip, true);
    }

    /** udp-floor bw: sendmmsg to recvmmsg for {@code seconds} (after half a second of warm-up). */
    static FloorRun floorStream(FloorDatagram d, int seconds) {
        return new FloorRun(FLOOR, "udp-floor bw " + d.udpPayload(), true,
            List.of("bw", Integer.toString(d.udpPayload()), Integer.toString(seconds)), d, false, false);
    }

    /** A perftest twin: {@code tool} (write_bw, send_lat, ...) and what follows it on both sides. */
    static FloorRun jroce(String id, String label, String tool, List<String> testArgs) {
        List<String> a = new ArrayList<>();
        a.add(tool);
        a.addAll(testArgs);
        return new FloorRun(id, label, false, List.copyOf(a), null, false, false);
    }

    /** This run as one of a latency pair, whose processes the sitting pins to CPUs of their own. */
    FloorRun pinnedPair() {
        return new FloorRun(id, label, floor, args, datagram, roundTrip, true);
    }

    /** The twin's command line for one side: the tool, the harness's addresses and ports, the test's arguments. */
    List<String> twinArgs(boolean client, BenchOptions o) {
        List<String> a = new ArrayList<>();
        a.add(args.get(0));
        a.add("--bind");
        a.add(client ? o.clientAddress() : o.serverAddress());
        a.add("-p");
        a.add(Integer.toString(o.tcpPort()));
        a.add("--udp-port");
        a.add(Integer.toString(o.udpPort()));
        a.addAll(args.subList(1, args.size()));
        if (client) {
            a.add(o.serverAddress());
        }
        return a;
    }

    /** As a person would type it: "udp-floor pp 80 50000", "jroce send_lat -s 64 -n 50000 -F". */
    String command() {
        return (floor ? "udp-floor " : "jroce ") + String.join(" ", args);
    }
}
