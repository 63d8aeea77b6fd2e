package io.jroce.benchmarks.harness;

import static io.jroce.tools.getopt.OptionSpec.NO_SHORT;
import static io.jroce.tools.getopt.OptionSpec.flag;
import static io.jroce.tools.getopt.OptionSpec.value;

import io.jroce.tools.UsageException;
import io.jroce.tools.getopt.Getopt;
import io.jroce.tools.getopt.OptionSpec;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;

/** The command line of {@code jroce bench}. */
record BenchOptions(int repeat, List<String> cases, double itersFactor, Path logDir, Path markdown,
                    String serverAddress, String clientAddress, int tcpPort, int udpPort, List<String> javaOptions,
                    long timeoutSeconds, boolean floor, boolean pin) {

    static final String USAGE = """
        usage: jroce bench [options]

        Benchmark harness: runs each case as a perftest twin pair (write_bw, read_bw, send_lat: server and
        client, two processes) and as its raw-UDP baseline pair (udp_bw, udp_lat) through the same socket
        layer, -r times, interleaved; prints the medians, the ratio jroce / baseline, CPU seconds per GB
        and bytes allocated per operation (both processes, all threads), and memory per QP; writes the
        table as markdown. Every process's output and JROCE_PROCESS_STATS file stays in the log directory.
        CPU and allocation are marginal: a 5-iteration run of each case is subtracted, so JVM start-up
        and connection set-up do not count. docs/benchmarks.md explains every figure.

        cases: write_bw_64k write_rate_64 send_lat_64 send_lat_64_busy read_bw_64k scale_q1 scale_q16 scale_q256
               scale_q1024

        With --floor it compares jroce with the C floor of the kernel's UDP path instead: udp-floor (C, in
        benchmarks/src/main/c, built here with the system's cc; n/a without one) runs with datagrams the
        size of the RoCE packets, alternating with the twins round by round, and the table gives medians,
        ranges, ratios and spreads (max/min) against issue 14's targets.

        floor cases: send_lat_64 write_lat_64 read_lat_64 atomic_lat write_rate_64 write_bw_64k (with 256 and
                     1,024 QPs)

        options:
              --floor             compare against the C floor (default -r 5)
              --no-pin            with --floor, leave the two processes of a latency pair where the
                                  scheduler puts them (default: taskset pins the server to the first
                                  CPU allowed, the client to the second, udp-floor's sides alike)
          -r, --repeat=N          runs of each side of each case; the median is reported (default 3, or 5
                                  with --floor)
              --cases=A,B,...     only these cases (default all)
              --iters-factor=F    scale every case's -n by F, e.g. 0.1 for a quick look (default 1)
              --quick             --repeat 1 --iters-factor 0.1 (-D of the floor cases: 4 x F, at least 1)
              --out=FILE          the markdown table (default LOGDIR/results.md)
              --log-dir=DIR       outputs of every process (default $TMPDIR/jroce-bench-DATE)
              --server=ADDR       the servers' address (default 127.0.0.2)
              --client=ADDR       the clients' address (default 127.0.0.1)
          -p, --port=PORT         TCP port of the handshakes (default 18515)
              --udp-port=PORT     UDP port of every device and baseline socket (default 4791)
              --java-opts="..."   JVM options of every process (default none, as ./jroce)
              --timeout=SECS      longest run of one process (default 600)
        """;

    static BenchOptions parse(List<String> args) throws UsageException {
        Parser p = new Parser();
        new Getopt(p.table(), (o, operand) -> {
            throw Getopt.unknown(operand);
        }).parse(args);
        return p.build();
    }

    /** The option table, and what it has read so far. */
    private static final class Parser {
        private Integer repeat;
        private boolean floor;
        private boolean pin = true;
        private List<String> cases = List.of();
        private double factor = 1;
        private Path logDir;
        private Path markdown;
        private String server = "127.0.0.2";
        private String client = "127.0.0.1";
        private int port = 18515;
        private int udpPort = 4791;
        private List<String> javaOptions = List.of();
        private long timeout = 600;

        private List<OptionSpec> table() {
            return List.of(
                value('r', "repeat", (o, v) -> repeat = Getopt.integer(o, v, 1, 100)),
                value(NO_SHORT, "cases", (o, v) -> cases = Arrays.asList(v.split(","))),
                value(NO_SHORT, "iters-factor", (o, v) -> factor = positive(o, v)),
                flag(NO_SHORT, "floor", () -> floor = true),
                flag(NO_SHORT, "no-pin", () -> pin = false),
                flag(NO_SHORT, "quick", () -> {
                    repeat = 1;
                    factor = 0.1;
                }),
                value(NO_SHORT, "out", (o, v) -> markdown = Path.of(v)),
                value(NO_SHORT, "log-dir", (o, v) -> logDir = Path.of(v)),
                value(NO_SHORT, "server", (o, v) -> server = v),
                value(NO_SHORT, "client", (o, v) -> client = v),
                value('p', "port", (o, v) -> port = Getopt.integer(o, v, 1, 0xFFFF)),
                value(NO_SHORT, "udp-port", (o, v) -> udpPort = Getopt.integer(o, v, 1, 0xFFFF)),
                value(NO_SHORT, "java-opts", (o, v) -> javaOptions = words(v)),
                value(NO_SHORT, "timeout", (o, v) -> timeout = Getopt.integer(o, v, 1, 86_400)));
        }

        private BenchOptions build() throws UsageException {
            List<String> known = floor ? FloorCases.all(1).stream().map(FloorCase::name).toList()
                : BenchCases.all(1).stream().map(BenchCase::name).toList();
            for (String c : cases) {
                if (!known.contains(c)) {
                    throw new UsageException("unknown case '" + c + "'; the cases are " + String.join(" ", known));
                }
            }
            if (logDir == null) {
                String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
                logDir = Path.of(System.getProperty("java.io.tmpdir"), "jroce-bench-" + stamp);
            }
            if (markdown == null) {
                markdown = logDir.resolve("results.md");
            }
            int runs = repeat != null ? repeat : floor ? 5 : 3;
            return new BenchOptions(runs, cases, factor, logDir, markdown, server, client, port, udpPort, javaOptions,
                timeout, floor, pin);
        }
    }

    private static double positive(String option, String value) throws UsageException {
        try {
            double d = Double.parseDouble(value);
            if (d > 0) {
                return d;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new UsageException(option + " needs a positive number, got '" + value + "'");
    }

    private static List<String> words(String s) {
        return s.isBlank() ? List.of() : Arrays.asList(s.trim().split("\\s+"));
    }

    /** The floor cases (--floor) selected by --cases. */
    List<FloorCase> selectedFloorCases() {
        List<FloorCase> all = FloorCases.all(itersFactor);
        return cases.isEmpty() ? all : all.stream().filter(c -> cases.contains(c.name())).toList();
    }

    List<BenchCase> selectedCases() {
        List<BenchCase> all = BenchCases.all(itersFactor);
        return cases.isEmpty() ? all : all.stream().filter(c -> cases.contains(c.name())).toList();
    }
}
