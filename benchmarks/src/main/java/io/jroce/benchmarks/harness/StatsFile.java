package io.jroce.benchmarks.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** A {@link ProcessStats} file read back: {@code key=value} lines. */
record StatsFile(Map<String, String> values) {
    static StatsFile read(Path file) throws IOException {
        Map<String, String> m = new HashMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                m.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return new StatsFile(m);
    }

    double number(String key) {
        String v = values.get(key);
        return v == null ? Double.NaN : Double.parseDouble(v);
    }

    double cpuSeconds() {
        return number("cpu_seconds");
    }

    double allocatedBytes() {
        return number("allocated_bytes");
    }

    double rssPeakBytes() {
        return number("rss_peak_bytes");
    }

    double directPeakBytes() {
        return number("direct_peak_bytes");
    }
}
