package io.jroce.benchmarks.harness;

import io.jroce.tools.perftest.report.PerftestReport;
import io.jroce.tools.perftest.report.PerftestReportParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs one test as two {@code jroce} processes ({@link BenchMain}), server then client, with the JVM and class path
 * of the harness itself (so both sides run the code the harness was built from), each writing its
 * {@link ProcessStats} file; their output goes to the log directory. The client starts once the
 * server listens on its TCP port, seen in /proc/net/tcp without connecting to it.
 */
final class ProcessPair {
    private final Path logDir;
    private final List<String> javaOptions;
    private final long timeoutSeconds;

    ProcessPair(Path logDir, List<String> javaOptions, long timeoutSeconds) {
        this.logDir = logDir;
        this.javaOptions = javaOptions;
        this.timeoutSeconds = timeoutSeconds;
    }

    /** What one side left behind. */
    record Side(int exitStatus, String stdout, Path stdoutFile, StatsFile stats) {
    }

    /** Both sides of one run; {@code failure} says what went wrong, or is null. */
    record Outcome(Side server, Side client, PerftestReport report, String failure) {
        boolean ok() {
            return failure == null;
        }
    }

    Outcome run(String label, int tcpPort, List<String> serverArgs, List<String> clientArgs)
        throws IOException, InterruptedException {
        return run(label, tcpPort, serverArgs, clientArgs, CpuPinning.UNPINNED);
    }

    /** As {@link #run(String, int, List, List)}, each side started under {@code pinning}'s prefix for it. */
    Outcome run(String label, int tcpPort, List<String> serverArgs, List<String> clientArgs, CpuPinning pinning)
        throws IOException, InterruptedException {
        Process server = start(label + "-server", pinning.prefix(false), serverArgs);
        Process client = null;
        try {
            if (!awaitListening(server, tcpPort)) {
                return new Outcome(null, null, null, label + ": the server did not listen on TCP port " + tcpPort
                    + " (see " + logDir.resolve(label + "-server.out") + ")");
            }
            client = start(label + "-client", pinning.prefix(true), clientArgs);
            boolean clientDone = client.waitFor(timeoutSeconds, TimeUnit.SECONDS);
            boolean serverDone = clientDone && server.waitFor(30, TimeUnit.SECONDS);
            if (!clientDone || !serverDone) {
                return new Outcome(null, null, null, label + ": timed out after " + timeoutSeconds + " s");
            }
        } finally {
            destroy(client);
            destroy(server);
        }
        Side s = side(label + "-server", server.exitValue());
        Side c = side(label + "-client", client.exitValue());
        PerftestReport report = PerftestReportParser.parse(c.stdout());
        String failure = null;
        if (s.exitStatus() != 0 || c.exitStatus() != 0) {
            failure = label + ": exit status server " + s.exitStatus() + ", client " + c.exitStatus()
                + " (see " + logDir + ")";
        } else if (report.iterations().isEmpty()) {
            failure = label + ": no perftest result row in " + c.stdoutFile();
        } else if (s.stats() == null || c.stats() == null) {
            failure = label + ": a process wrote no " + ProcessStats.ENV + " file";
        }
        return new Outcome(s, c, report, failure);
    }

    private Process start(String name, List<String> prefix, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(ProcessHandle.current().info().command().orElse(
            Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(javaOptions);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(BenchMain.class.getName());
        cmd.addAll(args);
        List<String> shown = new ArrayList<>(prefix);
        shown.addAll(args);
        Files.writeString(logDir.resolve(name + ".cmd"), String.join(" ", shown) + "\n");
        Path stats = logDir.resolve(name + ".stats");
        Files.deleteIfExists(stats);
        ProcessBuilder pb = new ProcessBuilder(cmd)
            .redirectOutput(logDir.resolve(name + ".out").toFile())
            .redirectError(logDir.resolve(name + ".err").toFile());
        pb.environment().put(ProcessStats.ENV, stats.toString());
        return pb.start();
    }

    private Side side(String name, int exit) throws IOException {
        Path out = logDir.resolve(name + ".out");
        Path stats = logDir.resolve(name + ".stats");
        return new Side(exit, Files.readString(out, StandardCharsets.UTF_8), out,
            Files.exists(stats) ? StatsFile.read(stats) : null);
    }

    private boolean awaitListening(Process server, int port) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                return false;
            }
            if (ListeningPorts.isListening(port)) {
                return true;
            }
            Thread.sleep(20);
        }
        return false;
    }

    private static void destroy(Process p) throws InterruptedException {
        if (p != null && p.isAlive()) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
