package io.jroce.tools.explain;

import java.util.Locale;

/** How explain prints times and durations. */
final class Durations {
    private Durations() {
    }

    /** A duration at a readable scale: {@code 850 ns}, {@code 12.3 us}, {@code 4.567 ms}, {@code 1.234 s}. */
    static String format(long ns) {
        if (ns < 1_000) {
            return ns + " ns";
        }
        if (ns < 1_000_000) {
            return String.format(Locale.ROOT, "%.1f us", ns / 1e3);
        }
        if (ns < 1_000_000_000) {
            return String.format(Locale.ROOT, "%.3f ms", ns / 1e6);
        }
        return String.format(Locale.ROOT, "%.3f s", ns / 1e9);
    }

    /** Seconds since the capture's start, with microseconds, as Wireshark's relative time column. */
    static String relative(long ns, long startNs) {
        return String.format(Locale.ROOT, "%.6f", (ns - startNs) / 1e9);
    }
}
