package io.jroce.benchmarks.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The CPUs the two processes of a latency pair run on: the server (udp-floor's echo side) on the
 * first CPU this process may use, the client (udp-floor's timing side) on the second, through
 * {@code taskset} for the twins and udp-floor's own CPU arguments for the floor.
 *
 * <p>Why: each side busy-polls on one thread, one per CPU of a 2-CPU machine. A C program has no
 * other thread; a JVM has several that wake now and then (the JIT, the GC's service thread, its
 * periodic task, the device's fallback thread), and after such a wake the scheduler may leave
 * both spinning threads on one CPU for milliseconds, taking turns of tens of microseconds, which
 * is what set jroce's 99th percentile apart from the floor's run to run (docs/benchmarks.md).
 * Both sides of the comparison are pinned alike.
 *
 * @param serverCpu the server's CPU, or null when not pinned
 * @param clientCpu the client's CPU, or null when not pinned
 * @param taskset   the {@code taskset} program, or null when not pinned
 * @param why       what is pinned where, or why nothing is, for the log and the table
 */
record CpuPinning(String serverCpu, String clientCpu, Path taskset, String why) {
    /** A pair started where the scheduler puts it (the bandwidth pairs, {@code jroce bench} without --floor). */
    static final CpuPinning UNPINNED = none("not pinned");

    /** Nothing pinned, for {@code why}. */
    static CpuPinning none(String why) {
        return new CpuPinning(null, null, null, why);
    }

    /** Pins when {@code wanted}, on Linux with {@code taskset} and at least two CPUs allowed to this process. */
    static CpuPinning detect(boolean wanted) {
        if (!wanted) {
            return none("not pinned (--no-pin)");
        }
        Optional<Path> taskset = Executables.onPath("taskset");
        if (taskset.isEmpty()) {
            return none("not pinned: no taskset on the PATH (Debian: util-linux)");
        }
        String status;
        try {
            status = Files.readString(Path.of("/proc/self/status"));
        } catch (IOException e) {
            return none("not pinned: cannot read /proc/self/status (" + e.getMessage() + ")");
        }
        return of(allowedCpus(status), taskset.get());
    }

    /** Pins to the first two of {@code cpus}, if there are two. */
    static CpuPinning of(List<Integer> cpus, Path taskset) {
        if (cpus.size() < 2) {
            return none("not pinned: this process may use " + cpus.size() + " CPU(s), a pair needs 2");
        }
        String server = Integer.toString(cpus.get(0));
        String client = Integer.toString(cpus.get(1));
        return new CpuPinning(server, client, taskset,
            "latency pairs pinned: server on CPU " + server + ", client on CPU " + client);
    }

    /** The CPUs of the {@code Cpus_allowed_list} line of a /proc/PID/status ("0-1,4,6-7"); empty without one. */
    static List<Integer> allowedCpus(String procStatus) {
        List<Integer> cpus = new ArrayList<>();
        for (String line : procStatus.split("\n")) {
            if (!line.startsWith("Cpus_allowed_list:")) {
                continue;
            }
            for (String part : line.substring(line.indexOf(':') + 1).trim().split(",")) {
                if (part.isEmpty()) {
                    continue;
                }
                int dash = part.indexOf('-');
                int from = Integer.parseInt(part.substring(0, dash < 0 ? part.length() : dash).trim());
                int to = dash < 0 ? from : Integer.parseInt(part.substring(dash + 1).trim());
                for (int c = from; c <= to; c++) {
                    cpus.add(c);
                }
            }
        }
        return cpus;
    }

    boolean active() {
        return taskset != null;
    }

    /** What goes before a twin's java command: {@code taskset -c CPU}, or nothing. */
    List<String> prefix(boolean client) {
        return active() ? List.of(taskset.toString(), "-c", client ? clientCpu : serverCpu) : List.of();
    }

    /** What goes after udp-floor pp's arguments: the timing side's CPU, then the echo side's; or nothing. */
    List<String> floorArgs() {
        return active() ? List.of(clientCpu, serverCpu) : List.of();
    }
}
