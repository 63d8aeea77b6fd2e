package io.jroce.tools.perftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How the BW loop counts completions (perftest's fill_count): with -n not a multiple of the CQ
 * moderation, a QP's last completion counts only the messages it had left. Counting cq_mod for it
 * made the count of 8 QPs reach -n x 8 while one QP still had messages to post, and the loop
 * stopped polling and spun (write_bw -s 4096 -n 3000 -q 8 -t 16 never ended).
 */
class CompletionCountTest {
    private static PerftestParams params(String... args) throws Exception {
        PrintStream sink = new PrintStream(OutputStream.nullOutputStream());
        return PerftestParams.resolve(PerftestOptions.parse(PerftestTool.WRITE_BW, List.of(args)), sink, sink);
    }

    @Test
    void fillCountIsOnWhenTheIterationsAreNotAMultipleOfTheModeration() throws Exception {
        PerftestParams p = params("-s", "4096", "-n", "3000", "-q", "8", "-t", "16");
        assertEquals(16, p.cqMod);
        assertTrue(p.fillCount);
        assertFalse(params("-s", "4096", "-n", "3008", "-t", "16").fillCount, "3008 is 188 x 16");
        assertFalse(params("-s", "4096", "-D", "2", "-t", "16").fillCount, "not with -D, as perftest");
        assertTrue(params("-s", "65536", "-n", "1000", "-t", "16").cqMod == 1, "large messages: every one signaled");
        assertFalse(params("-s", "65536", "-n", "1001", "-t", "16").fillCount, "a moderation of 1 divides anything");
        assertTrue(params("-s", "4096", "-n", "100", "-t", "8", "-Q", "16").fillCount,
            "cq_mod capped at tx_depth 8: 100 is not a multiple of 8");
    }

    @Test
    void aQpsLastCompletionCountsOnlyWhatItHadLeft() {
        assertEquals(16, BwLoops.completed(0, 16, 3000, true));
        assertEquals(16, BwLoops.completed(2976, 16, 3000, true));
        assertEquals(8, BwLoops.completed(2992, 16, 3000, true), "2,992 counted, 3,000 sent: 8 left");
        assertEquals(16, BwLoops.completed(2992, 16, 3000, false), "without fill_count, cq_mod whatever is left");
    }

    @Test
    void aQpsCompletionsCountExactlyItsMessages() throws Exception {
        PerftestParams p = params("-s", "4096", "-n", "3000", "-q", "8", "-t", "16");
        long perQp = 0;
        long signaled = 0;
        for (long scnt = 0; scnt < p.iters; scnt++) {
            if (scnt % p.cqMod == p.cqMod - 1 || scnt == p.iters - 1) { // the loop's signaled WRs
                perQp += BwLoops.completed(perQp, p.cqMod, p.iters, p.fillCount);
                signaled++;
            }
        }
        assertEquals(188, signaled);
        assertEquals(3000, perQp, "a QP's completions count its 3,000 messages, not 188 x 16 = 3,008");
    }
}
