package io.jroce.benchmarks.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A floor case's figures: for each run id, one map per successful run (a failed run adds none).
 */
record FloorCaseResult(FloorCase floorCase, Map<String, List<Map<Figure, Double>>> figures) {
    /** {@code figure} of run {@code runId} over its runs. */
    Summary summary(String runId, Figure figure) {
        List<Double> values = new ArrayList<>();
        for (Map<Figure, Double> run : figures.getOrDefault(runId, List.of())) {
            values.add(run.getOrDefault(figure, Double.NaN));
        }
        return Summary.of(values);
    }
}
