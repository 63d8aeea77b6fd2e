package io.jroce.benchmarks.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a {@code jroce} process cost, written at exit when {@code JROCE_PROCESS_STATS=FILE} is set:
 * CPU time of all threads (JIT and GC included), bytes allocated by all threads
 * ({@link AllocationSampler}), peak and final RSS, the peak of the live heap (heap in use after
 * a collection) and of direct buffers. One {@code key=value} line each; {@link StatsFile} reads
 * them. The harness knows the operation count from the command line and the report, so it divides.
 *
 * <p>Two calls in {@code Main}: {@link #startFromEnvironment()} first, {@link #finish} before exit.
 */
public final class ProcessStats {
    public static final String ENV = "JROCE_PROCESS_STATS";
    private static final Path PROC_STATUS = Path.of("/proc/self/status");

    private final Path file;
    private final AllocationSampler allocations = new AllocationSampler();
    private final MemorySampler memory = new MemorySampler();
    private String command = "";

    private ProcessStats(Path file) {
        this.file = file;
    }

    /** Starts sampling if {@value #ENV} names a file; otherwise returns null and costs nothing. */
    public static ProcessStats startFromEnvironment() {
        String path = System.getenv(ENV);
        if (path == null || path.isEmpty()) {
            return null;
        }
        ProcessStats stats = new ProcessStats(Path.of(path));
        stats.allocations.start(stats.memory::sample);
        return stats;
    }

    /** Null-safe: records the command and writes the file. */
    public static void finish(ProcessStats stats, String[] args, int exitStatus) {
        if (stats == null) {
            return;
        }
        stats.command = String.join(" ", args);
        stats.write(exitStatus);
    }

    private void write(int exitStatus) {
        allocations.sample();
        memory.sample();
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("command", command.replace('\n', ' '));
        v.put("exit_status", exitStatus);
        v.put("wall_seconds", ManagementFactory.getRuntimeMXBean().getUptime() / 1e3);
        v.put("cpu_seconds", processCpuNs() / 1e9);
        v.put("allocated_bytes", allocations.totalBytes());
        v.put("allocated_bytes_live_threads", allocations.liveThreadBytes());
        v.put("threads_seen", allocations.threadsSeen());
        v.put("rss_peak_bytes", procStatusKb("VmHWM") * 1024);
        v.put("rss_bytes", procStatusKb("VmRSS") * 1024);
        v.put("heap_live_peak_bytes", memory.heapLivePeak());
        v.put("heap_committed_bytes", heapCommitted());
        v.put("direct_peak_bytes", memory.directPeak());
        long gcCount = 0;
        long gcMs = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcCount += Math.max(0, gc.getCollectionCount());
            gcMs += Math.max(0, gc.getCollectionTime());
        }
        v.put("gc_count", gcCount);
        v.put("gc_seconds", gcMs / 1e3);
        StringBuilder sb = new StringBuilder();
        v.forEach((k, value) -> sb.append(k).append('=').append(value).append('\n'));
        try {
            Files.writeString(file, sb, StandardCharsets.UTF_8);
        } catch (IOException e) {
            System.err.println("jroce: cannot write " + ENV + " file " + file + ": " + e.getMessage());
        }
    }

    /** CPU time of every thread of the process, user and system (getrusage through the MXBean). */
    static long processCpuNs() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime();
        }
        return ProcessHandle.current().info().totalCpuDuration().map(d -> d.toNanos()).orElse(-1L);
    }

    private static long heapCommitted() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
    }

    /** A field of /proc/self/status in kB (VmRSS, VmHWM), or -1 where there is none. */
    static long procStatusKb(String field) {
        try {
            for (String line : Files.readAllLines(PROC_STATUS, StandardCharsets.US_ASCII)) {
                if (line.startsWith(field + ":")) {
                    return Long.parseLong(line.substring(field.length() + 1).trim().split("\\s+")[0]);
                }
            }
            return -1;
        } catch (IOException | UncheckedIOException | NumberFormatException e) {
            return -1;
        }
    }
}
