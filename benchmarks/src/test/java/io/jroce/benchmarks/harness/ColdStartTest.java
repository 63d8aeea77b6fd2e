package io.jroce.benchmarks.harness;

import io.jroce.rnic.ProgressMode;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The cold-start benchmark's parts: the probe's line, the summary, one probe run (not timed). */
class ColdStartTest {
    @Test
    void aProbesLineParsesBackToWhatItSays() {
        ColdStartResult r = new ColdStartResult("INVOKER", 131, 256.43, 36.35, 9.43, 0, "SUCCESS");
        assertEquals("cold_start mode=INVOKER jvm_ms=131 open_ms=256.43 setup_ms=36.35 first_op_ms=9.43"
            + " retransmitted=0 status=SUCCESS", r.line());
        assertEquals(r, ColdStartResult.parse(r.line()));
        assertEquals(45.78, r.readyToCompletionMs(), 1e-9);
        assertEquals(302.21, r.openCallToCompletionMs(), 1e-9);
    }

    @Test
    void otherLinesAreNotResults() {
        assertNull(ColdStartResult.parse(null));
        assertNull(ColdStartResult.parse("SLF4J: No providers were found."));
        assertNull(ColdStartResult.parse("cold_start mode=INVOKER jvm_ms=x open_ms=1 setup_ms=1 first_op_ms=1 retransmitted=0 status=SUCCESS"));
        assertNull(ColdStartResult.parse("cold_start mode=INVOKER jvm_ms=1"));
    }

    @Test
    void theSummaryGivesMediansRangesAndTheTargets() {
        List<ColdStartResult> rs = List.of(
            new ColdStartResult("EVENT_LOOP", 120, 330, 40, 30, 0, "SUCCESS"),
            new ColdStartResult("EVENT_LOOP", 125, 340, 45, 70, 2, "SUCCESS"),
            new ColdStartResult("EVENT_LOOP", 130, 350, 50, 10, 0, "NO_COMPLETION"));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ColdStartCommand.report("EVENT_LOOP", rs, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("post to completion                                   30.00 (10.00-70.00)"), text);
        assertTrue(text.contains("devices open to first completion                     70.00 (60.00-115.00)"), text);
        assertTrue(text.contains("runs that retransmitted: 1 of 3; runs that failed: 1"), text);
        assertTrue(text.contains("median under 20 ms: not met; maximum under the ACK timeout 67.1 ms: not met"), text);
        assertTrue(text.contains("what the ACK timer races): maximum under 67.1 ms: not met"), text);
        assertTrue(text.contains(String.format(java.util.Locale.ROOT, "  %-48s %9.2f (400.00-455.00)", "open() called to first completion", 410.0)),
            text);
        assertTrue(text.contains("open() called to first completion: median under 20 ms: not met; maximum under the"
            + " ACK timeout: not met"), text);
    }

    @Test
    void oneProbeWritesItsBytesAndCompletes() throws Exception {
        // Warm or cold, the probe must do its one WRITE; its times are not asserted.
        ColdStartResult r = ColdStartProbe.run(ProgressMode.INVOKER, 14797, 0);
        assertEquals("SUCCESS", r.status(), r.line());
        assertEquals(r.line(), ColdStartResult.parse(r.line()).line(), "its line parses back (to the printed precision)");
    }
}
