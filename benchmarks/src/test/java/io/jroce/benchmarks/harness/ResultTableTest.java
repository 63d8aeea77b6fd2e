package io.jroce.benchmarks.harness;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The harness's table with only cases that have no target, whose verdict column is empty in every row. */
class ResultTableTest {
    @Test
    void aColumnEmptyInEveryRowStillPrints() {
        BenchCase read = BenchCases.all(1).stream().filter(c -> c.name().equals("read_bw_64k")).findFirst().orElseThrow();
        SideResult jroce = new SideResult(483.7, 3.85, 1132, 0, 0, 1, 0, true);
        SideResult base = new SideResult(537.7, 3.13, 1073, 0, 0, 1, 0, true);
        String text = new ResultTable(List.of(new CaseResult(read, jroce, base))).text();
        assertTrue(text.contains("read_bw_64k") && text.contains("483.7") && text.contains("0.90"), text);
    }
}
