package io.jroce.benchmarks.harness;

import java.util.List;

/** A case of {@code jroce bench --floor}: runs alternated round by round, and the rows computed from them. */
record FloorCase(String name, String title, List<FloorRun> runs, List<FloorRow> rows) {
}
