package io.jroce.benchmarks.harness;

/** A case's two sides and their ratio (jroce / baseline, of the case's metric). */
record CaseResult(BenchCase benchCase, SideResult jroce, SideResult baseline) {
    double ratio() {
        return jroce.metric() / baseline.metric();
    }

    /** "met", "MISSED", or "" without a target or a ratio. */
    String verdict() {
        Target t = benchCase.target();
        double r = ratio();
        if (t == null || Double.isNaN(r) || Double.isInfinite(r)) {
            return "";
        }
        return t.met(r) ? "met" : "MISSED";
    }
}
