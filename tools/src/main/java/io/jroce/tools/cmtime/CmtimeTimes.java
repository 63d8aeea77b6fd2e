package io.jroce.tools.cmtime;

import java.util.Locale;

/**
 * cmtime's clocks: per step, when the step began and ended for all connections, and for each
 * connection; in microseconds from the run's start, plus one so that 0 keeps meaning "not
 * measured" as a zero timeval does in cmtime.
 */
final class CmtimeTimes {
    private final long t0 = System.nanoTime();
    private final long[][] all = new long[Step.values().length][2];
    private final long[][][] each;

    CmtimeTimes(int connections) {
        each = new long[connections][Step.values().length][2];
    }

    private long now() {
        return (System.nanoTime() - t0) / 1000 + 1;
    }

    void startAll(Step s) {
        all[s.ordinal()][0] = now();
    }

    void endAll(Step s) {
        all[s.ordinal()][1] = now();
    }

    void start(int node, Step s) {
        each[node][s.ordinal()][0] = now();
    }

    void end(int node, Step s) {
        each[node][s.ordinal()][1] = now();
    }

    /**
     * show_perf's table: per step the total (ms), the slowest and fastest connection (ms, us) and
     * the total per connection (us), computed in C's float as cmtime does; the bind row only when
     * the client bound.
     */
    String table(boolean bound) {
        StringBuilder sb = new StringBuilder("step              total ms     max ms     min us  us / conn\n");
        for (Step s : Step.values()) {
            if (s == Step.BIND && !bound) {
                continue;
            }
            float max = 0;
            float min = 999999999f;
            for (long[][] node : each) {
                long[] t = node[s.ordinal()];
                if (t[0] != 0 && t[1] != 0) {
                    float us = t[1] - t[0];
                    max = Math.max(max, us);
                    min = Math.min(min, us);
                }
            }
            long[] t = all[s.ordinal()];
            float us = t[1] - t[0];
            sb.append(String.format(Locale.ROOT, "%-13s: %11.2f%11.2f%11.2f%11.2f%n", s.label, us / 1000.,
                max / 1000., (double) min, (double) (us / each.length)));
        }
        return sb.toString();
    }
}
