package io.jroce.tools.pingpong;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The two result lines of ibv_rc_pingpong, computed as it does: the time in whole microseconds
 * (gettimeofday) held in a C float, bytes = size * iters * 2 (both directions).
 */
final class PingpongReport {
    private PingpongReport() {
    }

    static void print(PrintStream out, int size, int iters, long elapsedNs) {
        float usec = elapsedNs / 1000;
        long bytes = (long) size * iters * 2;
        out.printf(Locale.ROOT, "%d bytes in %s seconds = %s Mbit/sec%n",
            bytes, fixed2(usec / 1_000_000.0), fixed2(bytes * 8.0 / usec));
        out.printf(Locale.ROOT, "%d iters in %s seconds = %s usec/iter%n",
            iters, fixed2(usec / 1_000_000.0), fixed2(usec / iters));
    }

    /** printf's {@code %.2f}, including its "inf" for a division by a zero duration. */
    static String fixed2(double v) {
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        if (Double.isNaN(v)) {
            return "-nan";
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }
}
