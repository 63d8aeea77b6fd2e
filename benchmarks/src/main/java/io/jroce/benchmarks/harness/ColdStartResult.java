package io.jroce.benchmarks.harness;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What one {@link ColdStartProbe} measured, as the line it prints and {@link ColdStartCommand}
 * parses: milliseconds from the JVM's start to {@code main}, for opening both devices, from the
 * devices open to the post (resources and connection), and from the post to its completion.
 */
record ColdStartResult(String mode, long jvmMs, double openMs, double setupMs, double firstOpMs,
                       long retransmitted, String status) {
    static final String PREFIX = "cold_start ";

    /** From the devices open to the first completion: the figure the ACK timeout races. */
    double readyToCompletionMs() {
        return setupMs + firstOpMs;
    }

    /** From the first {@code open()} call to the first completion: the words read literally, the open included. */
    double openCallToCompletionMs() {
        return openMs + setupMs + firstOpMs;
    }

    boolean ok() {
        return status.equals("SUCCESS");
    }

    String line() {
        return String.format(Locale.ROOT, "%smode=%s jvm_ms=%d open_ms=%.2f setup_ms=%.2f first_op_ms=%.2f"
            + " retransmitted=%d status=%s", PREFIX, mode, jvmMs, openMs, setupMs, firstOpMs, retransmitted, status);
    }

    /** The result in {@code line}, or null when it is not a probe's line. */
    static ColdStartResult parse(String line) {
        if (line == null || !line.startsWith(PREFIX)) {
            return null;
        }
        Map<String, String> f = new HashMap<>();
        for (String word : line.substring(PREFIX.length()).trim().split(" +")) {
            int eq = word.indexOf('=');
            if (eq <= 0) {
                return null;
            }
            f.put(word.substring(0, eq), word.substring(eq + 1));
        }
        try {
            return new ColdStartResult(f.get("mode"), Long.parseLong(f.get("jvm_ms")),
                Double.parseDouble(f.get("open_ms")), Double.parseDouble(f.get("setup_ms")),
                Double.parseDouble(f.get("first_op_ms")), Long.parseLong(f.get("retransmitted")), f.get("status"));
        } catch (NullPointerException | NumberFormatException e) {
            return null;
        }
    }
}
