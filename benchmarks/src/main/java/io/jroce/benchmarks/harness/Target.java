package io.jroce.benchmarks.harness;

import java.util.Locale;

/** A goal for a case's ratio (jroce / baseline): at least or at most {@code bound}. */
record Target(boolean atLeast, double bound) {
    static final Target NONE = null;

    static Target atLeast(double bound) {
        return new Target(true, bound);
    }

    static Target atMost(double bound) {
        return new Target(false, bound);
    }

    boolean met(double ratio) {
        return atLeast ? ratio >= bound : ratio <= bound;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s %.2f", atLeast ? ">=" : "<=", bound);
    }
}
