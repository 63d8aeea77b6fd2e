package io.jroce.tools.perftest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A refused command line ends as perftest 4.5-0.17's does. The texts are the source's: each tool's
 * main() prints " Parser function exited with Error" when parser() fails (src/write_bw.c lines
 * 68-72 and the other seven); parser()'s default case prints " Invalid Command or flag." and
 * " Please check command line and run again." and a blank line, then usage() on stdout
 * (src/perftest_parameters.c lines 2842-2849); -q on a latency test prints " Multiple QPs only
 * available on bw tests" (line 2378); -n out of range is CHECK_VALUE_IN_RANGE's " %s should be
 * between %d and %d" with "Iteration num", MIN_ITER 5 and MAX_ITER 100000000 (perftest_parameters.h).
 */
class PerftestParserErrorTest {
    @Test
    void aCheckOfParserIsFollowedByParserFunctionExitedWithError() throws Exception {
        CommandRunner r = CommandRunner.run("write_lat", "-q", "2");
        assertEquals(ExitStatus.USAGE, r.status(), r.transcript());
        assertEquals(List.of(" Multiple QPs only available on bw tests", " Parser function exited with Error"),
            r.err().lines().toList(), r.transcript());
        assertEquals("", r.out(), r.transcript());
    }

    @Test
    void aRangeCheckToo() throws Exception {
        CommandRunner r = CommandRunner.run("send_bw", "-n", "2");
        assertEquals(ExitStatus.USAGE, r.status(), r.transcript());
        assertEquals(List.of(" Iteration num should be between 5 and 100000000", " Parser function exited with Error"),
            r.err().lines().toList(), r.transcript());
    }

    /** jroce's line names the flag, as getopt's does in the original; then parser()'s and main()'s. */
    @Test
    void anUnknownFlagGetsParsersDefaultCaseAndTheUsage() throws Exception {
        CommandRunner r = CommandRunner.run("read_bw", "--bogus");
        assertEquals(ExitStatus.USAGE, r.status(), r.transcript());
        assertEquals(List.of("jroce read_bw: unknown option '--bogus'", " Invalid Command or flag.",
            " Please check command line and run again.", "", " Parser function exited with Error"),
            r.err().lines().toList(), r.transcript());
        assertEquals(PerftestUsage.text(PerftestTool.READ_BW), r.out());
    }
}
