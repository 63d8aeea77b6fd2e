package io.jroce.rnic.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.jroce.verbs.ResourceLimitException;

/** Keys are random, unique, never 0, and found again exactly until released (issue 11, rkey guessing). */
class KeyTableTest {
    private static final int N = 10_000;

    private static SoftMw window(KeyTable keys) {
        SoftMw mw = new SoftMw(null, 1);
        mw.rkey(keys.allocate(mw));
        return mw;
    }

    @Test
    void tenThousandKeysAreDistinctNonZeroAndNeitherSequentialNorFixed() {
        KeyTable keys = new KeyTable();
        int[] k = new int[N];
        Set<Integer> all = new HashSet<>();
        Set<Integer> tags = new HashSet<>();
        Set<Integer> lowBytes = new HashSet<>();
        for (int i = 0; i < N; i++) {
            k[i] = window(keys).rkey();
            assertNotEquals(0, k[i]);
            all.add(k[i]);
            tags.add(k[i] >>> 8);
            lowBytes.add(k[i] & 0xFF);
        }
        assertEquals(N, all.size(), "keys are unique");
        assertEquals(N, tags.size(), "upper 24 bits are unique: each key has its own slot");
        // 10,000 uniform draws miss one of 256 values with probability ~256 * e^-39: all appear.
        assertEquals(256, lowBytes.size(), "the low byte takes every value");
        int sameStep = 0;
        int sameLowStep = 0;
        int rising = 0;
        for (int i = 2; i < N; i++) {
            sameStep += (k[i] >>> 8) - (k[i - 1] >>> 8) == (k[i - 1] >>> 8) - (k[i - 2] >>> 8) ? 1 : 0;
            sameLowStep += ((k[i] - k[i - 1]) & 0xFF) == ((k[i - 1] - k[i - 2]) & 0xFF) ? 1 : 0;
            rising += (k[i] >>> 8) > (k[i - 1] >>> 8) ? 1 : 0;
        }
        assertTrue(sameStep < 5, "upper 24 bits form no arithmetic progression: " + sameStep + " equal steps");
        // A random low byte repeats its step 1 time in 256: about 39 of 9,998; a fixed sequence every time.
        assertTrue(sameLowStep < 200, "low 8 bits follow no fixed sequence: " + sameLowStep + " equal steps");
        assertTrue(rising > N * 2 / 5 && rising < N * 3 / 5, "upper 24 bits do not count up: " + rising + " rises");
    }

    @Test
    void twoTablesStartWithDifferentKeys() {
        assertNotEquals(window(new KeyTable()).rkey(), window(new KeyTable()).rkey());
    }

    @Test
    void aKeyIsFoundExactlyUntilReleased() {
        KeyTable keys = new KeyTable();
        SoftMw mw = window(keys);
        int k = mw.rkey();
        assertSame(mw, keys.lookupWindow(k));
        assertNull(keys.lookupWindow(k ^ 0x01), "another low byte finds nothing");
        assertNull(keys.lookupWindow(k ^ 0x100), "another upper part finds nothing");
        assertNull(keys.lookup(k), "a window is no region");
        keys.release(k);
        assertNull(keys.lookupWindow(k));
    }

    /** A source that repeats itself: the table must draw again rather than share a slot or hand out 0. */
    @Test
    void aCollidingOrZeroDrawIsDrawnAgain() {
        int[] draws = {0x000000AB, 0x12345601, 0x12345602, 0x12345699, 0x0ABCDE07};
        Random scripted = new Random() {
            private int next;

            @Override
            public int nextInt() {
                return draws[next++];
            }
        };
        KeyTable keys = new KeyTable(scripted);
        assertEquals(0x12345601, window(keys).rkey(), "tag 0 is skipped");
        assertEquals(0x0ABCDE07, window(keys).rkey(), "a live tag is skipped whatever its low byte");
    }

    @Test
    void churnKeepsEveryLiveKeyAndForgetsEveryReleasedOne() {
        KeyTable keys = new KeyTable();
        List<SoftMw> live = new ArrayList<>();
        List<Integer> released = new ArrayList<>();
        Random r = new Random(11);
        for (int i = 0; i < 100_000; i++) {
            if (live.size() < 2_000 && (live.isEmpty() || r.nextInt(3) != 0)) {
                live.add(window(keys));
            } else {
                SoftMw gone = live.remove(r.nextInt(live.size()));
                keys.release(gone.rkey());
                released.add(gone.rkey());
            }
        }
        for (SoftMw mw : live) {
            assertSame(mw, keys.lookupWindow(mw.rkey()));
        }
        Set<Integer> liveKeys = new HashSet<>();
        live.forEach(mw -> liveKeys.add(mw.rkey()));
        for (int k : released) {
            if (!liveKeys.contains(k)) {
                assertNull(keys.lookupWindow(k));
            }
        }
    }

    @Test
    void theKeySpaceIsCappedAtMaxMr() {
        KeyTable keys = new KeyTable();
        for (int i = 0; i < DeviceLimits.MAX_MR; i++) {
            window(keys);
        }
        assertThrows(ResourceLimitException.class, () -> window(keys));
    }
}
