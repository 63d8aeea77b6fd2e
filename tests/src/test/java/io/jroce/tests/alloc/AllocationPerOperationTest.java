package io.jroce.tests.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bytes allocated per operation on every thread of a process, in the steady state of the perftest
 * twins in the invoker progress mode (docs/progress-modes.md): each case runs server and client in
 * a JVM of its own ({@link AllocationRun}: a warm-up run, then a run measured between two of the
 * client's operations), so no other test's threads count.
 *
 * <p>The bound: fewer bytes than operations, i.e. under 1 byte per operation on average, with no
 * thread started in the span (so none was missed). jroce's code allocates nothing per operation:
 * with the C1 compiler only (no escape analysis) the spans measure 0 bytes. What the default JVM
 * adds is its own, once, not per operation: a C2 compile request resolves the string constants of
 * the compiled method's class on the requesting thread (a String and its bytes each), and the first
 * use of a VarHandle access mode links a method handle; a few KB in all. Nothing depends on speed.
 */
class AllocationPerOperationTest {
    private static final Pattern RESULT = Pattern.compile("RESULT bytes=(\\d+) ops=(\\d+) threadsStarted=(\\d+)");

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "write_bw, -s 64, 30000, 10000, 110000",
        "write_bw, -s 65536 -m 4096, 5000, 2000, 52000",
        "send_bw, -s 65536, 5000, 2000, 52000",
        "read_bw, -s 65536, 5000, 2000, 52000",
        "send_lat, -s 2, 30000, 10000, 110000",
        "write_lat, -s 2, 30000, 10000, 110000",
        "read_lat, -s 2, 30000, 10000, 110000",
    })
    void invokerModeAllocatesUnderOneBytePerOperation(String tool, String options, long warmup, long first,
                                                      long second) throws Exception {
        List<String> args = new ArrayList<>(List.of(Long.toString(warmup), Long.toString(first), Long.toString(second),
            tool));
        args.addAll(List.of(options.split(" ")));
        args.addAll(List.of("--progress", "invoker"));
        String out = runJvm(args);
        assertFalse(out.contains("FAILED"), out);
        Matcher m = RESULT.matcher(out);
        assertTrue(m.find(), "no RESULT line\n" + out);
        long bytes = Long.parseLong(m.group(1));
        long ops = Long.parseLong(m.group(2));
        assertEquals(second - first, ops, out);
        assertEquals(0, Long.parseLong(m.group(3)), "a thread started in the span could be missed\n" + out);
        System.out.printf("%s %s (invoker): %d bytes in %d operations, %.4f per operation%n%s%n", tool, options, bytes,
            ops, (double) bytes / ops, out);
        assertTrue(bytes < ops, "under 1 byte per operation: " + bytes + " bytes in " + ops + " operations\n" + out);
    }

    /** Runs {@link AllocationRun} in a new JVM with this one's class path; returns what it printed. */
    private static String runJvm(List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), AllocationRun.class.getName()));
        command.addAll(args);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(10, TimeUnit.MINUTES), "the run did not end");
        String text = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), text);
        return text;
    }
}
