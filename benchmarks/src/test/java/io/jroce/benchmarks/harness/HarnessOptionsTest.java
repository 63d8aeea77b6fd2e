package io.jroce.benchmarks.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.tools.UsageException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The command lines of {@code jroce bench}, {@code udp_bw} and {@code udp_lat}, read by the tools' Getopt. */
class HarnessOptionsTest {
    private static String benchError(String... args) {
        return assertThrows(UsageException.class, () -> BenchOptions.parse(List.of(args))).getMessage();
    }

    private static String baselineError(boolean latency, String... args) {
        return assertThrows(UsageException.class, () -> BaselineOptions.parse(latency, List.of(args))).getMessage();
    }

    @Test
    void benchTakesSeparateAndInlineValues() throws UsageException {
        BenchOptions o = BenchOptions.parse(List.of("-r", "5", "--port=4792", "--cases", "send_lat_64,scale_q16",
            "--log-dir=/tmp/b", "--java-opts= -Xmx1g  -XX:+UseParallelGC ", "--udp-port", "4800", "--timeout=30"));
        assertEquals(5, o.repeat());
        assertEquals(4792, o.tcpPort());
        assertEquals(List.of("send_lat_64", "scale_q16"), o.cases());
        assertEquals(Path.of("/tmp/b"), o.logDir());
        assertEquals(Path.of("/tmp/b/results.md"), o.markdown());
        assertEquals(List.of("-Xmx1g", "-XX:+UseParallelGC"), o.javaOptions());
        assertEquals(4800, o.udpPort());
        assertEquals(30, o.timeoutSeconds());
        assertEquals(List.of("send_lat_64", "scale_q16"), o.selectedCases().stream().map(BenchCase::name).toList());
    }

    @Test
    void quickIsOneRunAtATenthOfTheIterations() throws UsageException {
        BenchOptions o = BenchOptions.parse(List.of("--quick", "--server", "10.0.0.2", "--client=10.0.0.1",
            "--out", "r.md", "--log-dir", "/tmp/b"));
        assertEquals(1, o.repeat());
        assertEquals(0.1, o.itersFactor());
        assertEquals("10.0.0.2", o.serverAddress());
        assertEquals("10.0.0.1", o.clientAddress());
        assertEquals(Path.of("r.md"), o.markdown());
    }

    @Test
    void benchRejectsMissingValuesOutOfRangeNumbersValuedFlagsAndUnknownCases() {
        assertEquals("--port needs a value", benchError("--port"));
        assertEquals("--port needs a number from 1 to 65535, got '70000'", benchError("--port", "70000"));
        assertEquals("-r needs a number from 1 to 100, got '0'", benchError("-r", "0"));
        assertEquals("--quick takes no value", benchError("--quick=yes", "--port", "1"));
        assertEquals("--iters-factor needs a positive number, got '-1'", benchError("--iters-factor", "-1"));
        assertEquals("unknown option '--verbose'", benchError("--verbose"));
        assertEquals("unknown option 'extra'", benchError("extra"));
        assertTrue(benchError("--cases", "write_bw_64k,nope").startsWith("unknown case 'nope'; the cases are write_bw_64k "));
    }

    @Test
    void udpBwTakesPerftestsFlagsAndAServer() throws UsageException {
        BaselineOptions o = BaselineOptions.parse(false, List.of("-s", "4096", "--iters=10", "-m", "4096", "-q", "4",
            "--tx-depth", "8", "-o", "2", "--read", "--report_gbits", "-F", "-N", "--noPeak", "--busy-poll",
            "--bind", "127.0.0.3", "-p", "18600", "--udp-port=4800", "127.0.0.2"));
        assertEquals("127.0.0.2", o.server());
        assertFalse(o.isServer());
        assertEquals(4096, o.size());
        assertEquals(10, o.iters());
        assertEquals(4096, o.mtu());
        assertEquals(4, o.flows());
        assertEquals(8, o.txDepth());
        assertEquals(2, o.outstandingReads());
        assertTrue(o.read());
        assertTrue(o.reportGbits());
        assertTrue(o.busyPoll());
        assertEquals("127.0.0.3", o.bind());
        assertEquals(18600, o.port());
        assertEquals(4800, o.udpPort());
    }

    @Test
    void udpLatDefaultsToTheServerAndHasNoFlowOptions() throws UsageException {
        BaselineOptions o = BaselineOptions.parse(true, List.of("-D", "5"));
        assertNull(o.server());
        assertTrue(o.isServer());
        assertEquals(2, o.size());
        assertEquals(1000, o.iters());
        assertEquals(5, o.durationSecs());
        assertEquals("unknown option '-q'", baselineError(true, "-q", "2"));
        assertEquals("unknown option '--read'", baselineError(true, "--read"));
        assertEquals("udp_lat sends one datagram each way: -s must be at most the MTU (1024)",
            baselineError(true, "-s", "2048"));
    }

    @Test
    void baselineRejectsBadNumbersAndMtus() {
        assertEquals("-m must be 256, 512, 1024, 2048 or 4096, got 1000", baselineError(false, "-m", "1000"));
        assertEquals("-s needs a number from 0 to 1073741824, got 'x'", baselineError(false, "-s", "x"));
        assertEquals("--size needs a value", baselineError(false, "--size"));
    }
}
